import type { Skipped } from '../run/plan.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What the progress says of the pairs a run skipped: a line for the targets not installed here and one for those that
 * cannot serve a scenario, each pointing at the command that tells more; with --verbose, every skip and its reason.
 */
export function skipLines(skipped: readonly Skipped[], verbose: boolean): string[] {
  if (verbose) return skipped.map((s) => `skipping ${s.target} for ${s.scenario}: ${s.reason}`);
  const lines: string[] = [];
  const missing = [...new Set(skipped.filter((s) => s.kind === 'unavailable').map((s) => s.target))];
  if (missing.length > 0)
    lines.push(
      `${plural(missing.length, 'target', 'targets')} skipped: their system packages are missing; \`bench doctor\` lists them and the apt-get line (--verbose names them)`,
    );
  const unserved = skipped.filter((s) => s.kind === 'unsupported').map((s) => `${s.target}/${s.scenario}`);
  if (unserved.length > 0) {
    const named = unserved.length > 6 ? `${unserved.slice(0, 5).join(', ')} and ${unserved.length - 5} more` : unserved.join(', ');
    lines.push(`${plural(unserved.length, 'pair', 'pairs')} not served: ${named} (\`bench list\` says why)`);
  }
  return lines;
}
