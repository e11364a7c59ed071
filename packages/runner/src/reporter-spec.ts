/** A reporter as named on the command line, with the file its output goes to. */
export interface ReporterSpec {
  readonly name: string;
  out?: string;
}

/**
 * Collects --reporter and --out in command-line order, so `--reporter json --out r.json
 * --reporter ab` sends JSON to r.json and ab text to standard output. An --out before any
 * --reporter applies to the first reporter (markdown when none is named).
 */
export function reporterSpecCollector() {
  const specs: ReporterSpec[] = [];
  let pendingOut: string | undefined;
  return {
    addReporter: (name: string) => {
      specs.push({ name, ...(specs.length === 0 && pendingOut ? { out: pendingOut } : {}) });
      return name;
    },
    addOut: (file: string) => {
      const last = specs.at(-1);
      if (last) last.out = file;
      else pendingOut = file;
      return file;
    },
    specs: (): ReporterSpec[] => (specs.length > 0 ? specs : [{ name: 'markdown', ...(pendingOut ? { out: pendingOut } : {}) }]),
  };
}
