// The one zod of bench's packages: they import `z` from @bench/core, whose bundle carries zod as a single module
// (zod's own ESM is 99 files, half of those a CLI opened at start; docs/architecture.md).
export { z } from 'zod';
