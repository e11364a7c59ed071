import { workloadSteps, Redaction, secretValues } from '@bench/core';
import type { RunOptionInput } from '../options/declarations.js';
import type { Project } from '../project/project.js';

/**
 * The secrets of one run of a project: the headers its scenarios and -H send, the URLs it drives and sends to
 * (user info, named query parameters), the receivers' headers, --redact's names and the values the config marks
 * secret. `given` is what overrides the config's defaults (the flags); both are read, since either may hold one.
 */
export function runRedaction(project: Project, given: RunOptionInput = {}, receiverUrls: readonly string[] = []): Redaction {
  const layers = [given, project.defaults ?? {}];
  const requests = project.scenarios.flatMap((scenario) => [
    scenario.request,
    ...(scenario.workload ? workloadSteps(scenario.workload) : []),
  ]);
  const configTargets = project.config?.config.targets ?? [];
  return new Redaction({
    names: layers.flatMap((layer) => layer.redact ?? []),
    headers: [...layers.flatMap((layer) => (layer.headers ? [layer.headers] : [])), ...requests.map((r) => r.headers)],
    secretHeaders: layers.flatMap((layer) => (layer.outHeaders ? [layer.outHeaders] : [])),
    urls: [
      ...layers.flatMap((layer) => [layer.url, layer.prometheus, layer.otlp].filter((u): u is string => u !== undefined)),
      ...configTargets.flatMap((t) => (typeof t === 'object' && 'url' in t ? [t.url] : [])),
      ...requests.map((r) => r.path),
      ...receiverUrls,
    ],
    values: secretValues({ ...project.config?.config, options: given }),
    sshUrls: layers.flatMap((layer) => [layer.serverHost, layer.databaseHost].filter((u): u is string => u !== undefined)),
  });
}
