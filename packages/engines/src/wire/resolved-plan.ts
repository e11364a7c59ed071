import { bareHostname, resolveHost, type LoadPlan } from '@bench/core';

/**
 * The plan with its URL's host looked up once, before load: the connections go to the address it resolved to (IPv4
 * or IPv6), and the Host header keeps the name the URL gave.
 */
export async function withResolvedHost(plan: LoadPlan): Promise<LoadPlan> {
  const given = new URL(plan.url);
  const { address, family } = await resolveHost(plan.url);
  if (address === bareHostname(given)) return plan;
  const url = new URL(plan.url);
  url.hostname = family === 6 ? `[${address}]` : address;
  const named = Object.keys(plan.request.headers).some((name) => name.toLowerCase() === 'host');
  const headers = named ? plan.request.headers : { ...plan.request.headers, Host: given.host };
  return { ...plan, url: url.href, request: { ...plan.request, headers } };
}
