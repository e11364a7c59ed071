import { parseReceiverUrl } from '../outputs/receiver-url.js';
import { outputKinds, type OutputKind } from '../outputs/metrics-output.js';

/** A reporter as named on the command line or in a config file, with the file its output goes to and its options. */
export interface ReporterSpec {
  readonly name: string;
  out?: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * Collects --reporter and --out in command-line order, so `--reporter json --out r.json
 * --reporter ab` sends JSON to r.json and ab text to standard output. An --out before any
 * --reporter applies to the first reporter (markdown when none is named).
 */
export function reporterSpecCollector() {
  const specs: ReporterSpec[] = [];
  let pendingOut: string | undefined;
  const outputs: Partial<Record<OutputKind, string>> = {};
  return {
    /** `--out prometheus=URL`, `--out otlp=URL`, k6's spelling of a live output: each receiver's URL, not a file. */
    outputs: (): Readonly<Partial<Record<OutputKind, string>>> => outputs,
    addReporter: (name: string) => {
      specs.push({ name, ...(specs.length === 0 && pendingOut ? { out: pendingOut } : {}) });
      return name;
    },
    addOut: (file: string) => {
      const output = /^([a-z]+)=(.+)$/.exec(file);
      const kind = output?.[1];
      if (kind !== undefined && Object.hasOwn(outputKinds, kind)) {
        outputs[kind as OutputKind] = parseReceiverUrl(`--out ${kind}=`, output![2]!, kind as OutputKind);
        return file;
      }
      const last = specs.at(-1);
      if (last) last.out = file;
      else pendingOut = file;
      return file;
    },
    /** The reporters named on the command line; when none was, `fallback` (the config's, or markdown), a lone --out going to the first. */
    specs: (fallback: readonly ReporterSpec[] = [{ name: 'markdown' }]): ReporterSpec[] => {
      if (specs.length > 0) return specs;
      const [first, ...rest] = fallback.length > 0 ? fallback : [{ name: 'markdown' }];
      return [{ ...first!, ...(pendingOut ? { out: pendingOut } : {}) }, ...rest];
    },
  };
}
