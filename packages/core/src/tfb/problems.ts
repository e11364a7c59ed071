/** One finding of TFB's verifier: a failure keeps the stack from being measured, a warning is printed. */
export interface TfbProblem {
  readonly severity: 'fail' | 'warn';
  /** The rule, named as in the failure line: headers, date, content-type, body, query cases, fortunes, updates, counts. */
  readonly rule: string;
  readonly message: string;
}

export const fail = (rule: string, message: string): TfbProblem => ({ severity: 'fail', rule, message });
export const warn = (rule: string, message: string): TfbProblem => ({ severity: 'warn', rule, message });

/** The problem as one line: `tfb <rule>: message`. */
export const describeTfbProblem = (problem: TfbProblem): string => `tfb ${problem.rule}: ${problem.message}`;

/** A body's start, for a message. */
export const preview = (text: string, length = 80): string => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length - 3)}...` : flat;
};
