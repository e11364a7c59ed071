import { errors } from '../errors.js';

/** What goes on the wire between the load engine and the server (`--protocol`). */
export const protocols = ['http1', 'https', 'h2', 'h2c'] as const;
export type Protocol = (typeof protocols)[number];

/** Each protocol in words, for help, reports and refusals. */
export const protocolWords: Readonly<Record<Protocol, string>> = {
  http1: 'HTTP/1.1',
  https: 'HTTP/1.1 over TLS',
  h2: 'HTTP/2 over TLS (ALPN h2)',
  h2c: 'cleartext HTTP/2 (prior knowledge)',
};

/** Whether the protocol runs over TLS (the run then makes its own CA and a certificate for the server). */
export const overTls = (protocol: Protocol): boolean => protocol === 'https' || protocol === 'h2';

/** The protocols a target's server or a load engine speaks: HTTP/1.1 only when it names none. */
export const protocolsOf = (plugin: { readonly protocols?: readonly Protocol[] | undefined }): readonly Protocol[] =>
  plugin.protocols ?? ['http1'];

/** Whether a target's server or a load engine speaks `protocol`. */
export const speaksProtocol = (plugin: { readonly protocols?: readonly Protocol[] | undefined }, protocol: Protocol): boolean =>
  protocolsOf(plugin).includes(protocol);

/** The URL scheme a server of this protocol answers on. */
export const schemeOf = (protocol: Protocol): 'http' | 'https' => (overTls(protocol) ? 'https' : 'http');

export function parseProtocol(raw: string): Protocol {
  const protocol = protocols.find((p) => p === raw.toLowerCase());
  if (!protocol) throw errors.usage(`--protocol "${raw}" is not one of ${protocols.join(', ')}`);
  return protocol;
}
