import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { engineBinary } from '../engine-version.js';

/** The k6 release bench is tested with; `go install` builds it from the Go module proxy in a few minutes. */
export const K6_VERSION = 'v1.8.1';
export const K6_INSTALL = `go install go.k6.io/k6@${K6_VERSION}`;

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** k6: BENCH_K6_BINARY, else PATH, else where `go install` puts it ($GOBIN, $GOPATH/bin, ~/go/bin). */
export function k6Binary(): string | undefined {
  const found = engineBinary('k6');
  if (found || process.env.BENCH_K6_BINARY !== undefined) return found;
  const goBins = [process.env.GOBIN, process.env.GOPATH ? path.join(process.env.GOPATH, 'bin') : undefined, path.join(homedir(), 'go', 'bin')];
  return goBins.filter((dir): dir is string => Boolean(dir)).map((dir) => path.join(dir, 'k6')).find(executable);
}
