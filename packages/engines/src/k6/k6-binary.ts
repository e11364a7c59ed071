import { homedir } from 'node:os';
import path from 'node:path';
import { findBinary } from '@bench/core';
import { engineBinary } from '../engine-binary.js';

/** The k6 release bench is tested with; `go install` builds it from the Go module proxy in a few minutes. */
export const K6_VERSION = 'v1.8.1';
export const K6_INSTALL = `go install go.k6.io/k6@${K6_VERSION}`;

/** k6: BENCH_K6_BINARY, else PATH, else where `go install` puts it ($GOBIN, $GOPATH/bin, ~/go/bin). */
export function k6Binary(): string | undefined {
  if (process.env.BENCH_K6_BINARY !== undefined) return engineBinary('k6');
  const goBins = [
    process.env.GOBIN,
    process.env.GOPATH ? path.join(process.env.GOPATH, 'bin') : undefined,
    path.join(homedir(), 'go', 'bin'),
  ];
  return findBinary(
    'k6',
    goBins.filter((dir): dir is string => Boolean(dir)),
  );
}
