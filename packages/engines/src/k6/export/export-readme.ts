import type { ExportDescription } from './export-description.js';
import type { ManifestNames } from './testrun.js';

/** What the README says of the run's secrets: where they are, and that the script only reads them from its environment. */
function secretsSection(d: ExportDescription): string {
  if (!d.secrets && !d.dataFile) return '';
  const rows = Object.entries(d.secrets ?? {}).map(([name, what]) => `- \`${name}\`: ${what}`);
  const data = d.dataFile
    ? `The data file's rows are in \`${d.dataFile}\` beside the script (which opens it) and in \`secret.yaml\` (mounted for the
TestRun's runners), not in the script: they may be credentials. Keep it as you keep the secrets.

`
    : '';
  return `## Secrets

${
  rows.length > 0
    ? `The script reads the run's secrets from its environment and holds none of them:

${rows.join('\n')}

\`secret.yaml\` (a Kubernetes Secret the TestRun's runners read them from) and \`secrets.env\` (for hosts of your own)
hold their values, readable by you only (mode 0600): keep them out of version control and out of ConfigMaps.

`
    : ''
}${data}`;
}

/** The README of an export: how to run it on k6-operator or on hosts by hand, and how to bring the samples back. */
export function exportReadme(o: { description: ExportDescription; names: ManifestNames; localCommands: readonly string[] }): string {
  const d = o.description;
  const bound =
    d.shape.rate !== undefined
      ? `${d.shape.rate} requests/s for ${d.shape.durationSeconds ?? 10} s`
      : d.shape.requests !== undefined
        ? `${d.shape.requests} requests`
        : `${d.shape.durationSeconds ?? 10} s`;
  return `# bench export: ${d.scenario.name} on k6, ${d.generators} generator(s)

${d.scenario.method} ${d.url.replace(/\/+$/, '')}${d.scenario.path}, ${d.shape.connections} ${d.shape.rate !== undefined ? 'VUs at most' : 'connections (VUs)'}, ${bound}, keep-alive ${d.shape.keepAlive ? 'on' : 'off'}.
Written by bench ${d.bench} for k6 ${d.k6}. Every answer is checked (status, and the body as the scenario expects).

The run is split over ${d.generators} k6 instance(s) by execution segments: ${d.segments.join(', ')}.
Each instance writes its raw samples (one line per metric per request) to a CSV file of its own;
\`bench import\` merges all of them into one histogram, so the percentiles are those of every request.

${secretsSection(d)}## On Kubernetes, with k6-operator

\`\`\`
kubectl apply -f ${d.secrets || d.dataFile ? 'secret.yaml -f ' : ''}configmap.yaml -f results-pvc.yaml -f testrun.yaml
kubectl get testrun ${o.names.name} -w          # until the stage is "finished"
\`\`\`

The operator starts ${d.generators} runner pod(s) paused, gives each its segment, and releases them together.
Each runner writes \`/results/<pod name>.csv\` on the \`${o.names.claim}\` volume (ReadWriteMany).
Copy the files into \`${d.resultsDir}/\` here, e.g. through any pod that mounts the claim:

\`\`\`
kubectl cp <pod-with-the-claim>:/results ./${d.resultsDir}
\`\`\`

## On hosts of your own, without Kubernetes

Copy \`script.js\`${d.secrets ? ' and `secrets.env`' : ''}${d.dataFile ? ` and \`${d.dataFile}\`` : ''} to each generator host and start one part on each, at the same moment${d.secrets ? ', its secrets in the environment' : ''}:

\`\`\`
${d.secrets ? 'set -a; . ./secrets.env; set +a\n' : ''}${o.localCommands.join('\n')}
\`\`\`

then copy every CSV file into \`${d.resultsDir}/\` here.

## Into bench

\`\`\`
npx bench import .                       # prints the result; writes bench-results.json beside this file
npx bench import . -r json -o run.json   # any reporter; run.json is read by bench report and bench compare
\`\`\`
`;
}
