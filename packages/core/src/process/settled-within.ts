/**
 * `promise`'s value, or undefined once `ms` have passed: the timer holds the process open while it waits (a wait that
 * nothing else holds still ends) and is cleared the moment the promise settles, so bench exits when its work is done,
 * not when the longest of these waits would have run out.
 */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
