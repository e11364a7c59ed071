/** What the dashboard's process tells the runner: where it listens, or why it could not. */
export type DashboardMessage =
  { readonly type: 'listening'; readonly port: number } | { readonly type: 'failed'; readonly code: string; readonly message: string };

/** What the runner tells the dashboard's process: the run has ended. */
export type RunnerMessage = { readonly type: 'finish' };
