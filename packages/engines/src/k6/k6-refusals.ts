import {
  callKind,
  capturers,
  isChecked,
  parseTemplate,
  refusalMessage,
  requestSites,
  workloadSteps,
  type Workload,
  type WorkloadStep,
} from '@bench/core';

// A request a captured value would break (a header's CR LF, a raw path value's space) is not sent, on k6 as on bench's
// own engines: the script checks each such value before the request, and counts a request it refuses in bench_refused,
// the sample's value the refusal's number (from 1) in k6Refusals' list, which the samples are read back with.

/** A place where a captured value could break a step's request. */
export interface K6Refusal {
  readonly step: string;
  readonly place: 'path' | 'header';
  readonly variable: string;
  /** What bench reports when the script refuses the request: the message bench's own engines give. */
  readonly message: string;
}

/** Every place of a workload where a captured value could break a request, in the script's order. */
export function k6Refusals(workload: Workload): K6Refusal[] {
  const steps = workloadSteps(workload);
  const capturedBy = capturers(steps);
  return steps.flatMap((step) =>
    requestSites(step).flatMap(({ place, text, label }) =>
      parseTemplate(text).flatMap((part) =>
        typeof part !== 'string' && callKind(part) === 'variable' && isChecked(part, place)
          ? [
              {
                step: step.name,
                place,
                variable: part.name,
                message: refusalMessage(`step ${step.name}: ${label}`, part, capturedBy(part.name), place),
              },
            ]
          : [],
      ),
    ),
  );
}

/** A step's check in the script, before it is sent: the number of the first refusal its captured values meet, or 0. */
export function k6RefusalExpression(step: WorkloadStep, refusals: readonly K6Refusal[]): string {
  const tests = refusals.flatMap((refusal, i) =>
    refusal.step === step.name
      ? [
          `(${refusal.place === 'path' ? 'NOT_IN_TARGET' : 'HEADER_BREAK'}.test(String(vars[${JSON.stringify(refusal.variable)}] ?? '')) ? ${i + 1} : 0)`,
        ]
      : [],
  );
  return tests.length === 0 ? '0' : tests.join(' || ');
}
