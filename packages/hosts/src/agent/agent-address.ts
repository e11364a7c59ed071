import { isIP } from 'node:net';
import { LOOPBACK } from '@bench/core';

/**
 * The address the agent's SSH session arrived at, from OpenSSH's SSH_CONNECTION ("client port server port"): the one
 * the runner's host reaches this host by, so the stacks listen there and nowhere else. 127.0.0.1 for an agent started
 * by hand, outside SSH.
 */
export function sessionAddress(env: NodeJS.ProcessEnv = process.env): string {
  const server = env.SSH_CONNECTION?.trim().split(/\s+/)[2];
  return server !== undefined && isIP(server) !== 0 ? server : LOOPBACK;
}
