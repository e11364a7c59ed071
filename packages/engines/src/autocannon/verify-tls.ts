import { readFileSync } from 'node:fs';
import tls from 'node:tls';

// autocannon opens its TLS connections with rejectUnauthorized: false, whatever its options say (lib/httpClient.js).
// bench's clients verify the server against the run's CA: in this worker thread, every tls.connect is made to.
let trusted: { file: string | undefined; ca: Buffer | undefined } | undefined;
const connect = tls.connect.bind(tls);

function verifyingConnect(...args: unknown[]): tls.TLSSocket {
  if (!trusted) return (connect as (...a: unknown[]) => tls.TLSSocket)(...args);
  const at = args.findIndex((arg) => typeof arg === 'object' && arg !== null);
  const options = {
    ...(at >= 0 ? (args[at] as tls.ConnectionOptions) : {}),
    rejectUnauthorized: true,
    ...(trusted.ca ? { ca: trusted.ca } : {}),
  };
  const rest = at >= 0 ? args.map((arg, i) => (i === at ? options : arg)) : [...args, options];
  return (connect as (...a: unknown[]) => tls.TLSSocket)(...rest);
}

/** From now on in this thread, TLS connections verify the server: against `caFile` alone, or the system's roots without it. */
export function verifyServers(caFile: string | undefined): void {
  if (!trusted || trusted.file !== caFile) trusted = { file: caFile, ca: caFile ? readFileSync(caFile) : undefined };
  (tls as { connect: typeof tls.connect }).connect = verifyingConnect;
}
