import { choosers, errors, longFlag, protocols, speaksProtocol, type LoadEngine, type OptionTable, type Protocol } from '@bench/core';
import { defaultEngine } from '@bench/engines';

// Which engine a run uses, from the engines' own declarations: named with --engine; else the one whose own options
// the run gives (k6 for --generators); else the first of those an option chooses that can run the run (wire, else the
// open loop, for --rate); else the default, unless --protocol asks for what it cannot speak: then the first engine
// that speaks it (k6 for h2, h2load for h2c).

type Values = Readonly<Record<string, unknown>>;

const flagOf = (table: OptionTable, key: string) => (table[key] ? longFlag(table[key].flags) : key);
const given = (options: Values, key: string) => options[key] !== undefined;

/** The engines whose own options the run gives. */
const claimedBy = (options: Values, engines: readonly LoadEngine[]) =>
  engines.filter((engine) => Object.keys(engine.options ?? {}).some((key) => given(options, key)));

/** The first engine that speaks a protocol and is chosen by no option (not wire or the open loop, which --rate chooses). */
const protocolSpeaker = (engines: readonly LoadEngine[], protocol: Protocol) =>
  engines.find((engine) => choosers(engine).length === 0 && speaksProtocol(engine, protocol));

/**
 * The engines a run may use, in the order they are tried: the one named; else the one whose own options the run gives;
 * else those an option chooses, in the registry's order (wire, then the open loop, for --rate); else the default;
 * unless --protocol asks for what they cannot speak: then the first engine that speaks it.
 */
export function candidateEngineNames(
  options: Values & { readonly engine?: string | undefined; readonly protocol?: Protocol | undefined },
  engines: readonly LoadEngine[],
): string[] {
  if (options.engine !== undefined) return [options.engine];
  const claimed = claimedBy(options, engines);
  if (claimed.length > 0) return [claimed[0]!.name];
  const chosen = engines.filter((engine) => choosers(engine).some((key) => given(options, key)));
  const list = chosen.length > 0 ? chosen : [defaultEngine];
  const protocol = options.protocol;
  if (protocol === undefined) return list.map((engine) => engine.name);
  // one that cannot speak it is still tried, so that the run says why the next one drives it
  if (list.some((engine) => speaksProtocol(engine, protocol))) return list.map((engine) => engine.name);
  return [protocolSpeaker(engines, protocol)?.name ?? list[0]!.name];
}

/** The name of the engine a run uses, before what its scenarios ask is known: the first candidate. */
export const chosenEngineName = (
  options: Values & { readonly engine?: string | undefined; readonly protocol?: Protocol | undefined },
  engines: readonly LoadEngine[],
): string => candidateEngineNames(options, engines)[0]!;

/** The engine each protocol gets when the default cannot speak it: "k6 with --protocol h2". */
function protocolChoices(engines: readonly LoadEngine[]): string[] {
  return protocols.flatMap((protocol) => {
    if (speaksProtocol(defaultEngine, protocol)) return [];
    const speaker = protocolSpeaker(engines, protocol);
    return speaker ? [`${speaker.name} with --protocol ${protocol}`] : [];
  });
}

/** Refuses another engine's own option: it means nothing to the engine the run uses. */
export function refuseOtherEnginesOptions(engine: LoadEngine, options: Values, engines: readonly LoadEngine[], table: OptionTable): void {
  for (const other of claimedBy(options, engines)) {
    if (other === engine) continue;
    const key = Object.keys(other.options ?? {}).find((k) => given(options, k))!;
    const flag = flagOf(table, key);
    const what = other.options?.[key]?.summary ?? `takes ${flag}`;
    throw errors.engineUnsupported(engine.name, `only ${other.name} ${what}: use --engine ${other.name} with ${flag}`);
  }
}

/** The values of an engine's own options in a run, for its plan. */
export function ownOptionValues(engine: LoadEngine, options: Values): Values {
  return Object.fromEntries(Object.keys(engine.options ?? {}).flatMap((key) => (given(options, key) ? [[key, options[key]]] : [])));
}

/** How --help says which engine a run uses when none is named: "autocannon; open-loop with --rate; k6 with --generators". */
export function engineChoiceText(engines: readonly LoadEngine[], table: OptionTable): string {
  const rules = engines.flatMap((engine) => {
    const keys = [...choosers(engine), ...Object.keys(engine.options ?? {})];
    return keys.length > 0 ? [`${engine.name} with ${keys.map((key) => flagOf(table, key)).join(' or ')}`] : [];
  });
  return [defaultEngine.name, ...rules, ...protocolChoices(engines)].join('; ');
}
