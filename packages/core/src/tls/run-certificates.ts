import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runGroupToCompletion } from '../process/process-group.js';
import { findBinary } from '../probe/find-binary.js';

export interface TlsMaterial {
  /** The run's own certificate authority: the only one the clients trust. */
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

const openssl = (args: string[], dir: string) =>
  runGroupToCompletion(findBinary('openssl') ?? 'openssl', args, { name: 'openssl', cwd: dir });

/** A certificate authority, made now, in `dir` under `name`. */
export async function makeAuthority(dir: string, name: string): Promise<{ certFile: string; keyFile: string }> {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  await openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=bench ${name}`],
    dir,
  );
  chmodSync(keyFile, 0o600);
  return { certFile, keyFile };
}

/**
 * A CA and a server certificate for 127.0.0.1 and localhost (and `addresses`: a server host's, when the stacks run
 * there) it signed, made at run time in the run's private dir (no key in the repository; the keys 0600, gone with the
 * dir, which the reaper removes after a kill -9 too).
 */
export async function makeTlsMaterial(dir: string, addresses: readonly string[] = []): Promise<TlsMaterial> {
  const ca = await makeAuthority(dir, 'ca');
  const keyFile = path.join(dir, 'server.key');
  const csr = path.join(dir, 'server.csr');
  const certFile = path.join(dir, 'server.crt');
  const extensions = path.join(dir, 'server.ext');
  const names = ['IP:127.0.0.1', 'DNS:localhost', ...addresses.map((address) => `IP:${address}`)];
  writeFileSync(extensions, `subjectAltName=${names.join(',')}\nbasicConstraints=CA:FALSE\n`);
  await openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', csr, '-subj', '/CN=127.0.0.1'], dir);
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      ca.certFile,
      '-CAkey',
      ca.keyFile,
      '-CAcreateserial',
      '-out',
      certFile,
      '-days',
      '1',
      '-extfile',
      extensions,
    ],
    dir,
  );
  chmodSync(keyFile, 0o600);
  return { caFile: ca.certFile, certFile, keyFile };
}
