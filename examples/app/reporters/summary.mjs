// A reporter of the app's own: one line per measured run, written to the file named by its `out` option.
import { writeFileSync } from 'node:fs';

export default (context) => {
  const lines = [];
  return {
    name: 'summary',
    onResult(result) {
      const what = result.status === 'ok' ? `${Math.round(result.rps)} rps, p99 ${result.latency.p99} ms` : `failed: ${result.error}`;
      lines.push(`${result.scenario} ${result.target} c=${result.concurrency} run ${result.repeat}: ${what}`);
    },
    onRunEnd(run) {
      const failed = (run.thresholds ?? []).filter((t) => !t.ok).length;
      lines.push(`thresholds: ${run.thresholds?.length ?? 0} checked, ${failed} failed`);
      const text = `${lines.join('\n')}\n`;
      if (context.outFile) writeFileSync(context.outFile, text);
      else context.stdout(text);
    },
  };
};
