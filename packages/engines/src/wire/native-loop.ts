import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type { BodyExpectation, LoadPlan } from '@bench/core';
import { bareHostname, packageFile } from '@bench/core/load-thread';

/** What the native loops (native/*.c, built by scripts/build-native.mjs) offer JavaScript. */
export interface NativeLoop {
  open(setup: {
    /** A numeric address (the engine resolved any host name before load), of this family. */
    address: string;
    family: 4 | 6;
    port: number;
    request: Buffer;
    expected: Buffer | undefined;
    headOnly: number;
    connections: number;
    depth: number;
    /** Answers a connection gives before it is closed and a new one opened; 0: no limit. */
    perConnection: number;
    timeoutMs: number;
    /** Requests to start in all; -1 for no end. */
    budget: number;
    /** performance.now() as the call is made: the loop's times are given on its clock. */
    nowMs: number;
    records: Float64Array;
    text: Buffer;
    /** The open loop's schedule (--rate); none for the closed loop. */
    rate?: NativeSchedule;
  }): NativeHandle;
  /** Runs the loop for up to `sliceMs`; the records it wrote, or -1 - that count once a request budget is spent. */
  pump(handle: NativeHandle, sliceMs: number): number;
  /**
   * Closes every connection; returns the events lost for want of room in the records (0 unless bench has a bug) and the
   * open loop's requests never sent (due in its period with no connection free, or not due yet when it was stopped).
   */
  stop(handle: NativeHandle): { lost: number; unsent: number };
  /** What the framer makes of these reads on one connection (the tests that hold both cores to the same cases). */
  frame(chunks: readonly Buffer[], expected: Buffer | undefined, headOnly: number, closeAfter: boolean): FramedForTest[];
}

/** An open loop's schedule (arrival-schedule.ts's): this thread's `due` requests, the j-th due at startMs + atMs(j). */
export interface NativeSchedule {
  /** The run's rate, all threads together (requests a second). */
  runRate: number;
  threadIndex: number;
  threadCount: number;
  due: number;
  /** The run's start on performance.now()'s clock. */
  startMs: number;
  periodMs: number;
}

/** An answer framed whole, or why the bytes are not HTTP. */
export type FramedForTest =
  | { readonly status: number; readonly bytes: number; readonly bodyBytes: number; readonly bodyOk: boolean; readonly closes: boolean }
  | { readonly error: string };
declare const handleBrand: unique symbol;
export type NativeHandle = { readonly [handleBrand]: true };

/**
 * The layout of a record: 13 doubles, the first its kind. An answer's: status (2), latency in µs (3: from its due time
 * in the open loop, else from its send), bytes (4), body bytes (5), when it arrived (6), flags (7), first byte (8),
 * where its body differed (9, 10, 11), latency from its send in µs (12).
 */
export const RECORD = 13;
export const EVENT = { connected: 1, answer: 2, failed: 3 } as const;
export const ANSWER_FLAGS = { bodyOk: 1, closes: 2, first: 4 } as const;
export const FAILURE_KINDS = ['connect', 'receive', 'exceptions', 'timeout'] as const;

let loaded: { loop?: NativeLoop; missing?: string } | undefined;

// the package's folder (this file is dist/wire/native-loop.js), where node-gyp-build looks for build/Release/ (compiled
// at install) and then prebuilds/<platform>-<arch>/ (shipped)
const packageRoot = packageFile(import.meta.url);

function load(): { loop?: NativeLoop; missing?: string } {
  if (process.platform !== 'linux') return { missing: 'it is built for Linux (epoll) only' };
  const require = createRequire(import.meta.url);
  let file: string;
  try {
    // BENCH_WIRE_NATIVE: another build of the core (scripts/check/native-sanitizers.sh runs the wire tests on one under sanitizers)
    file = process.env.BENCH_WIRE_NATIVE || (require('node-gyp-build') as { path(dir: string): string }).path(packageRoot);
  } catch {
    return {
      missing:
        `it has no binary for ${process.platform}-${process.arch} (prebuilt for linux-x64 and linux-arm64 on glibc; elsewhere ` +
        'compiled at install where a C compiler is: npm rebuild @bench/engines, or npm run build in a checkout)',
    };
  }
  try {
    return { loop: require(file) as NativeLoop };
  } catch (error) {
    return { missing: `${file} did not load (${(error as Error).message.split('\n')[0]})` };
  }
}

/** The native loop, or why there is none on this install. */
export function nativeLoop(): { loop?: NativeLoop; missing?: string } {
  return (loaded ??= load());
}

/** Why the native loop cannot run this body check, or undefined when it can. */
export function nativeBodyRefuses(expect: BodyExpectation): string | undefined {
  if (expect.kind !== 'any' && expect.kind !== 'exact') return 'it checks exact bodies only';
  return undefined;
}

/** The one line that refuses `--core native` for `reason`. */
export const nativeCoreRefused = (reason: string): string => `--core native: ${reason}; drop --core to run the js core`;

/**
 * Why the native loop cannot run this plan, or undefined when it can: it runs the closed or the open loop on HTTP/1.1
 * connections to a numeric address (the engine resolved the URL's host name before), with any body or the exact one
 * expected.
 */
export function nativeLoopRefuses(plan: LoadPlan): string | undefined {
  const url = new URL(plan.url);
  if (url.protocol !== 'http:') return 'it speaks plain HTTP only';
  if (!isIP(bareHostname(url))) return 'it connects to a numeric address only';
  return nativeBodyRefuses(plan.expect);
}
