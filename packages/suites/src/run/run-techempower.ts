import { setTimeout as sleep } from 'node:timers/promises';
import {
  callReporters,
  endReporters,
  ensureOpenFiles,
  errors,
  messageOf,
  onDatabase,
  openFilesNeeded,
  readOpenFilesLimit,
  routeOf,
  type CellResult,
  type HttpAnswer,
  type RunDocument,
  type RunningTarget,
  type Scenario,
  type TargetPlugin,
} from '@bench/core';
import { scaleConcurrency } from '../scale.js';
import type { TechempowerShape } from '../suite-schema.js';
import { techempowerEntry } from '../techempower-entry.js';
import type { SuiteCell, SuiteHost, SuiteOptions, SuiteRunRequest, SuiteVerification } from './suite-host.js';

type Test = TechempowerShape['tests'][number];

/** One measured level of a test: its connections, and the scenario it sends (a query type's value in its path). */
interface Level {
  readonly concurrency: number;
  readonly scenario: Scenario;
}

/** A query type's scenario at one value of its parameter: `tfb-queries?queries=5`, its path asking for that many rows. */
function atValue(scenario: Scenario, value: number): Scenario {
  const parameter = new URL(scenario.request.path, 'http://x').searchParams.keys().next().value ?? 'queries';
  const path = `${routeOf(scenario)}?${parameter}=${value}`;
  return { ...scenario, name: `${scenario.name}?${parameter}=${value}`, request: { ...scenario.request, path } };
}

/** --scale: a pause by the factor, however short. */
const pause = (seconds: number, scale: number) => Math.round(seconds * scale * 100) / 100;

/** --scale: every time by the factor (a fifth of a second at least; wrk runs whole seconds), concurrency as the other suites scale it. */
const scaledSeconds = (seconds: number, scale: number) => (scale === 1 ? seconds : Math.max(0.2, Math.round(seconds * scale * 10) / 10));

/**
 * A test's levels at a scale, and those this machine cannot open files for: a connection costs a descriptor in the
 * generator and one or two in the stack (openFilesNeeded), all under this process's hard limit.
 */
function levelsOf(test: Test, scenario: Scenario, scale: number): { levels: Level[]; beyond: number[]; limit?: number } {
  const concurrency = [...new Set(test.concurrency.map((c) => scaleConcurrency(c, scale)))];
  const wanted: Level[] = test.values
    ? test.values.map((value) => ({ concurrency: concurrency[0]!, scenario: atValue(scenario, value) }))
    : concurrency.map((c) => ({ concurrency: c, scenario }));
  const hard = readOpenFilesLimit()?.hard ?? Infinity;
  const levels = wanted.filter((level) => openFilesNeeded(level.concurrency) <= hard);
  const beyond = wanted.filter((level) => !levels.includes(level)).map((level) => level.concurrency);
  return { levels, beyond, ...(beyond.length > 0 ? { limit: hard } : {}) };
}

/** The scenario a test's primer and warm-up send: a query type asks for 2 rows, as TFB's scripts do. */
const primed = (test: Test, scenario: Scenario) => (test.values ? atValue(scenario, 2) : scenario);

/**
 * `bench suite techempower`: TFB's test types in TFB's load shape. Each stack starts once for every type it serves
 * (as TFB starts a framework once for its tests), each type is verified by TFB's rules and, if it passes, primed,
 * warmed at its highest level and measured at each level with a pause between; a type that fails is not measured.
 */
export async function runTechempowerSuite<O extends SuiteOptions>(request: SuiteRunRequest, host: SuiteHost<O>): Promise<RunDocument> {
  const { definition } = request.suite;
  const shape = definition.techempower;
  if (!shape) throw errors.suiteInvalid(`suite ${definition.name}`, 'a techempower suite needs its "techempower" shape');
  const scale = request.scale;
  const names = Object.keys(shape.entries);
  const unknown = request.targets?.filter((t) => !names.includes(t)) ?? [];
  if (unknown.length > 0)
    throw errors.usage(`suite ${definition.name} has no target ${unknown.join(', ')}; its targets: ${names.join(', ')}`);
  const skipped: Record<string, string> = {};
  const targets: TargetPlugin[] = [];
  for (const name of names) {
    if (request.targets && !request.targets.includes(name)) {
      skipped[name] = 'not selected (-t)';
      continue;
    }
    const target = host.targets.find((t) => t.name === name);
    const availability = target ? await target.available() : { ok: false, reason: 'no such target in this version of bench' };
    if (target && availability.ok) targets.push(target);
    else skipped[name] = availability.reason ?? 'not available';
  }
  if (targets.length === 0)
    throw errors.nothingToRun(
      `no target of suite ${definition.name} is available here (${Object.entries(skipped)
        .map(([t, r]) => `${t}: ${r}`)
        .join('; ')})`,
    );

  const scenarioOf = (test: Test) => {
    const found = host.scenarios.find((s) => s.name === test.scenario);
    if (!found) throw errors.suiteInvalid(`suite ${definition.name}`, `no scenario ${test.scenario}`);
    return onDatabase(found, request.db ?? 'mariadb');
  };
  const tests = shape.tests.map((test) => ({ test, scenario: scenarioOf(test), ...levelsOf(test, scenarioOf(test), scale) }));
  const seconds = { primer: scaledSeconds(shape.primer.seconds, scale), warmup: scaledSeconds(shape.warmupSeconds, scale) };
  const base = host.options(
    { scenarios: tests.map((t) => t.scenario.name), targets: targets.map((t) => t.name) },
    {
      engine: request.engine ?? shape.engine,
      durationSeconds: scaledSeconds(shape.durationSeconds, scale),
      // the warm-up is TFB's, once per type at its highest level; no cell warms up again
      warmupSeconds: 0,
      warmupMaxSeconds: 0,
      timeoutSeconds: 8,
      tfbBurst: Math.max(8, Math.round(shape.burst * Math.min(1, scale))),
      ...(request.db !== undefined ? { db: request.db } : {}),
      ...(request.repeat !== undefined ? { repeat: request.repeat } : {}),
    },
  );
  const optionsFor = (test: Test, levels: readonly Level[]): O => ({
    ...base,
    concurrency: levels.map((l) => l.concurrency),
    ...(test.pipelining !== undefined ? { pipelining: test.pipelining } : {}),
  });
  // every test's engine checked before anything starts (wrk pipelines; an engine that cannot is refused now)
  const engines = new Map<Test, Awaited<ReturnType<SuiteHost<O>['chooseEngine']>>>();
  for (const { test, levels } of tests)
    if (levels.length > 0)
      engines.set(
        test,
        await host.chooseEngine(
          optionsFor(test, levels),
          levels.map((l) => l.scenario),
        ),
      );
  const widest = Math.max(...tests.flatMap((t) => t.levels.map((l) => l.concurrency)), shape.primer.concurrency);
  ensureOpenFiles(widest);

  const doc = host.document(request.command ?? '', {
    ...base,
    concurrency: [...new Set(tests.flatMap((t) => t.levels.map((l) => l.concurrency)))],
  });
  const engineName = [...engines.values()][0]?.engine.name ?? base.engine ?? shape.engine;
  doc.suite = {
    name: definition.name,
    scale,
    skipped,
    shapes: [
      {
        run: 'techempower',
        kind: 'duration',
        seconds: base.durationSeconds ?? shape.durationSeconds,
        line:
          `TFB's shape${scale !== 1 ? ` scaled by ${scale}` : ''}: a ${seconds.primer} s primer at ${shape.primer.concurrency} connections, ` +
          `a ${seconds.warmup} s warm-up at the highest level (${pause(shape.restSeconds, scale)} s of rest after each), ${base.durationSeconds} s per level, ${pause(shape.pauseSeconds, scale)} s between; ` +
          `verified first with a burst of ${base.tfbBurst}; engine ${engineName}`,
      },
    ],
    notes: tests.flatMap(({ test, levels, beyond, limit }) =>
      beyond.length === 0
        ? []
        : [
            `${test.type} went to ${Math.max(...levels.map((l) => l.concurrency), 0).toLocaleString('en-US')} connections, not ${beyond.map((c) => c.toLocaleString('en-US')).join(', ')}: ` +
              `${Math.max(...beyond).toLocaleString('en-US')} need ${openFilesNeeded(Math.max(...beyond)).toLocaleString('en-US')} open files (a descriptor in the generator and two in a fronted stack each, and slack), this machine's hard limit is ${limit?.toLocaleString('en-US')}`,
          ],
    ),
  };
  const services = host.services;
  await services.prepare(tests.map((t) => t.scenario));
  await host.place(doc);
  const emit: NonNullable<SuiteRunRequest['onEvent']> = (event) => request.onEvent?.(event);
  const total = targets.length * tests.reduce((n, t) => n + t.levels.length, 0);
  let index = 0;
  let failure: unknown;
  const record = async (measured: CellResult) => {
    const result = host.printable(measured);
    doc.results.push(result);
    emit({ type: 'cell-end', result });
    await callReporters(request.reporters, 'onResult', doc, result);
  };
  await callReporters(request.reporters, 'onRunStart', doc);
  try {
    for (const target of targets) {
      if (request.signal?.aborted) break;
      const served = tests.filter((t) => t.levels.length > 0 && target.supports(t.scenario).ok);
      // one start for every type where the target serves several at once, else one a type
      for (const group of target.startMany ? [served] : served.map((t) => [t])) {
        if (group.length === 0 || request.signal?.aborted) continue;
        emit({ type: 'target-starting', scenario: group.map((t) => t.scenario.name).join(', '), target: target.name });
        let stack: RunningTarget | undefined;
        let startError: string | undefined;
        try {
          stack = await host.startStack(
            target,
            group.map((t) => t.scenario),
            widest,
          );
        } catch (error) {
          if (request.signal?.aborted) break;
          startError = messageOf(error);
        }
        try {
          // every type verified first, as TFB verifies before it measures: side by side, their one-second Date waits overlap
          const verified = new Map<Test, SuiteVerification>();
          if (stack) {
            const running = stack;
            for (const t of group) emit({ type: 'target-verifying', scenario: t.scenario.name, target: target.name });
            const checks = await Promise.all(group.map((t) => host.verify(running.url, t.scenario, base.tfbBurst)));
            group.forEach((t, i) => verified.set(t.test, checks[i]!));
          }
          for (const { test, scenario, levels } of group) {
            if (request.signal?.aborted) break;
            const options = optionsFor(test, levels);
            const { engine, version } = engines.get(test)!;
            const context = (level: Level): SuiteCell<O> => ({
              scenario: level.scenario,
              target: target.name,
              concurrency: level.concurrency,
              options,
              running: stack,
              engine: { name: engine.name, version },
            });
            let problem = startError;
            let answer: HttpAnswer | undefined;
            let warnings: readonly string[] = [];
            const verification = verified.get(test);
            if (verification && !problem) {
              if (!verification.ok) problem = `verification failed: ${verification.problems.join('; ')}`;
              answer = verification.answer;
              warnings = verification.warnings ?? [];
            }
            if (stack && !problem) {
              // TFB's primer (a few connections) and warm-up (the highest level), one request at a time on each connection
              const { pipelining: _pipelined, ...prime } = options;
              const warm = primed(test, scenario);
              emit({
                type: 'step',
                text: `${target.name} ${test.type}: primer, ${seconds.primer} s at ${shape.primer.concurrency} connections`,
              });
              await host.drive(engine, stack, warm, prime as O, shape.primer.concurrency, seconds.primer);
              await rest(pause(shape.restSeconds, scale), request.signal);
              const highest = Math.max(...levels.map((l) => l.concurrency));
              emit({ type: 'step', text: `${target.name} ${test.type}: warm-up, ${seconds.warmup} s at ${highest} connections` });
              await host.drive(engine, stack, warm, prime as O, highest, seconds.warmup);
              await rest(pause(shape.restSeconds, scale), request.signal);
            }
            for (const [at, level] of levels.entries()) {
              if (request.signal?.aborted) break;
              index++;
              if (!stack || problem) {
                await record(host.failed(context(level), problem ?? 'target did not start'));
                continue;
              }
              if (at > 0) await rest(pause(shape.pauseSeconds, scale), request.signal);
              const measured = await host.measure(context(level), engine, answer, { index, total });
              if (request.signal?.aborted) break;
              const notes = [
                `TFB entry: ${techempowerEntry(shape, target.name, request.db) ?? target.name}`,
                ...warnings.map((w) => `verification warned: ${w}`),
              ];
              await record(measured.status === 'ok' ? { ...measured, notes: [...measured.notes, ...notes] } : measured);
            }
          }
        } finally {
          await stack?.stop();
        }
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    await services.stopAll().catch((error: unknown) => (failure ??= error));
  }
  doc.complete = failure === undefined && !request.signal?.aborted;
  doc.finishedAt = new Date().toISOString();
  const endFailure = await endReporters(request.reporters, doc);
  if (failure !== undefined) throw failure;
  if (request.signal?.aborted) throw errors.interrupted(String(request.signal.reason ?? 'signal'));
  if (endFailure !== undefined) throw endFailure;
  return doc;
}

/** TFB's pauses (after the primer, the warm-up, and between levels); an interruption ends them. */
const rest = (seconds: number, signal: AbortSignal | undefined) =>
  sleep(seconds * 1000, undefined, signal ? { signal } : {}).catch(() => undefined);
