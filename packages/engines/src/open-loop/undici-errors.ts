import type { FailureKind } from '@bench/core';
import { classifyError } from '@bench/core/load-thread';

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const RECEIVE = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** undici's errors in ab's buckets; socket errnos (ECONNREFUSED, ECONNRESET, ...) as for every engine. */
export function classifyUndiciError(error: Error): FailureKind {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (TIMEOUTS.has(code)) return 'timeout';
  if (RECEIVE.has(code)) return 'receive';
  const cause = (error as { cause?: unknown }).cause;
  return classifyError(cause instanceof Error ? cause : error);
}
