import { z } from 'zod';

/**
 * The server's CPU profile over a cell's measured seconds (--profile): every process of the stack sampled by the
 * profiler its runtime has (V8's for Node, the JDK's Flight Recorder for Java, perf for native code), merged as folded
 * stacks, deflated and in base64.
 */
export const cellProfileSchema = z.object({
  /** Each profiler used and the processes it sampled, e.g. "v8 (3 processes)". */
  profilers: z.array(z.string()),
  /** Samples a second asked of each profiler (JFR's is its own: 100 a second per running thread). */
  hz: z.number(),
  /** The samples kept (after dropping the rarest stacks beyond the bound). */
  samples: z.number().int(),
  processes: z.number().int(),
  encoding: z.literal('folded-deflate-base64'),
  stacks: z.string(),
  /** What the profile lacks and why (a process no profiler could sample, stacks dropped at the bound). */
  notes: z.array(z.string()).default([]),
});

export type CellProfile = z.infer<typeof cellProfileSchema>;
