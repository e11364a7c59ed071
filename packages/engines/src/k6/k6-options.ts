import { positiveIntegerOption, type LoadPlan } from '@bench/core';

/** k6's own options, merged into `bench run`'s (and `bench export k6`'s). */
export const k6Options = {
  generators: positiveIntegerOption({
    flags: '--generators <n>',
    description: 'split each run over n k6 processes (execution segments), released together, their samples merged',
    summary: 'splits a run over generators',
    defaultText: '1',
    max: 64,
  }),
};

export const generatorsOf = (options: LoadPlan['options']): number => (typeof options?.generators === 'number' ? options.generators : 1);
