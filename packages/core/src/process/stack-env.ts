/** A stack's environment with a run's additions (TargetStartOptions.env): NODE_OPTIONS is appended to, not replaced. */
export function withStackEnvironment(env: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const merged = { ...env };
  for (const [key, value] of Object.entries(extra ?? {})) {
    merged[key] = key === 'NODE_OPTIONS' && merged[key] ? `${merged[key]} ${value}` : value;
  }
  return merged;
}
