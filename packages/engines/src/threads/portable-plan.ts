import type { BodyExpectation, LoadPlan, LoadShape, Protocol, ScenarioRequest, Workload } from '@bench/core';

/** A load plan as plain data, to cross into the worker thread (functions and signals do not). */
export interface PortablePlan {
  readonly url: string;
  readonly request: Omit<ScenarioRequest, 'body'> & { readonly body?: Uint8Array };
  readonly expect:
    | { readonly kind: 'exact'; readonly bytes: Uint8Array }
    | { readonly kind: 'matches'; readonly pattern: string }
    | { readonly kind: 'json'; readonly subset: unknown }
    | { readonly kind: 'any' };
  readonly shape: LoadShape;
  readonly options?: Readonly<Record<string, unknown>>;
  /** Plain data already (templates as text, data rows as strings). */
  readonly workload?: Workload;
  readonly protocol?: Protocol;
  readonly caFile?: string;
  readonly maxCheckedBody?: number;
}

export function toPortable(plan: LoadPlan): PortablePlan {
  const e = plan.expect;
  return {
    url: plan.url,
    request: { ...plan.request, ...(plan.request.body ? { body: new Uint8Array(plan.request.body) } : {}) },
    expect: e.kind === 'exact' ? { kind: 'exact', bytes: new Uint8Array(e.bytes()) } : e,
    shape: plan.shape,
    ...(plan.workload ? { workload: plan.workload } : {}),
    ...(plan.protocol ? { protocol: plan.protocol } : {}),
    ...(plan.caFile ? { caFile: plan.caFile } : {}),
    ...(plan.maxCheckedBody !== undefined ? { maxCheckedBody: plan.maxCheckedBody } : {}),
    // the engine's own options are plain values (numbers, strings, booleans)
    ...(plan.options ? { options: plan.options } : {}),
  };
}

export function fromPortable(
  p: PortablePlan,
): Pick<LoadPlan, 'url' | 'request' | 'expect' | 'shape' | 'options' | 'workload' | 'protocol' | 'caFile' | 'maxCheckedBody'> {
  let expect: BodyExpectation;
  if (p.expect.kind === 'exact') {
    const bytes = Buffer.from(p.expect.bytes);
    expect = { kind: 'exact', length: bytes.length, bytes: () => bytes };
  } else expect = p.expect;
  return {
    url: p.url,
    request: { ...p.request, ...(p.request.body ? { body: Buffer.from(p.request.body) } : {}) } as ScenarioRequest,
    expect,
    shape: p.shape,
    ...(p.workload ? { workload: p.workload } : {}),
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(p.caFile ? { caFile: p.caFile } : {}),
    ...(p.maxCheckedBody !== undefined ? { maxCheckedBody: p.maxCheckedBody } : {}),
    ...(p.options ? { options: p.options } : {}),
  };
}
