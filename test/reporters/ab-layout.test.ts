import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtinScenarios, resolveRunOptions, runCells } from '@bench/runner';
import { builtinTargets } from '@bench/targets';
import { renderAbText } from '@bench/reporters';

const run = promisify(execFile);

// Labels and units with the numbers taken out: "Requests per second:    N [#/sec] (mean)".
const shape = (line: string) =>
  line
    .replace(/n\/a/g, 'N')
    .replace(/\d+(\.\d+)?/g, 'N')
    .replace(/ +/g, ' ');
// ab's reliability warnings depend on each run's spread, so two runs may differ there; a unit test covers them.
const isReliabilityWarning = (line: string) => /^(WARNING|ERROR): The median and mean|^ +(These results|deviation apart)/.test(line);
// bench's own readings of the cell follow ab's block ("bench note: ..."): they are not ab's layout
const isBenchNote = (line: string) => line.startsWith('bench note: ');
const fromServerSoftware = (text: string) => {
  const lines = text.split('\n');
  return lines
    .slice(lines.findIndex((l) => l.startsWith('Server Software:')))
    .filter((l) => l.trim() !== '' && !isReliabilityWarning(l) && !isBenchNote(l));
};
// Where each labelled value starts (column 24 in ab).
const valueColumns = (lines: readonly string[]) =>
  lines
    .filter((l) => /^[A-Z][A-Za-z -]+:\s+\S/.test(l) && !/^(Connect|Processing|Waiting|Total):/.test(l))
    .map((l) => /^[^:]+:\s+/.exec(l)?.[0].length);

describe('the ab reporter against real ApacheBench', () => {
  it('prints the same lines, labels, units and value columns as ab for the same run shape', async () => {
    const scenarios = builtinScenarios();
    const hello = scenarios.find((s) => s.name === 'hello')!;
    const node = builtinTargets.find((t) => t.name === 'node')!;
    const running = await node.start(hello, { services: {} });
    let real: string;
    try {
      real = (await run('ab', ['-c', '4', '-n', '200', `${running.url}/`])).stdout;
    } finally {
      await running.stop();
    }
    const doc = await runCells(
      resolveRunOptions(
        { scenarios: ['hello'], targets: ['node'] },
        { concurrency: [4], requests: 200, keepAlive: false, warmupSeconds: 0, timeoutSeconds: 5 },
      ),
      { targets: [node], scenarios, reporters: [] },
    );
    const ours = renderAbText(doc.results[0]!, doc);
    const abLines = fromServerSoftware(real);
    const benchLines = fromServerSoftware(ours);
    expect(benchLines.map(shape), `bench printed:\n${ours}\nab printed:\n${real}`).toEqual(abLines.map(shape));
    expect(valueColumns(benchLines)).toEqual(valueColumns(abLines));
  });
});
