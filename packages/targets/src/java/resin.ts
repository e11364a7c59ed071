import type { TargetPlugin } from '@bench/core';
import type { PinnedJar } from './maven-jars.js';
import { createServletTarget } from './servlet-target.js';

export const RESIN_VERSION = '4.0.66';

// Resin 4 has no Debian package; Caucho publishes it on Maven Central under the GPL. Its jars and
// their runtime dependencies as Maven resolves them (the servlet API comes in javaee-16), each pinned
// by sha256 (checked against Central's .sha1 when pinned).
const RESIN_JARS: readonly PinnedJar[] = [
  {
    path: `com/caucho/resin/${RESIN_VERSION}/resin-${RESIN_VERSION}.jar`,
    sha256: 'db5d9c2c2608ea1e061ed69aeb499f7b396d0de8c6bd67a1f5e8c97b2fcaf468',
  },
  {
    path: `com/caucho/javaee-16/${RESIN_VERSION}/javaee-16-${RESIN_VERSION}.jar`,
    sha256: 'ebb3235bdb534c61690143ac359207440d4f7a5935cb78129f9bb67de14b7e82',
  },
  {
    path: `com/caucho/hessian/${RESIN_VERSION}/hessian-${RESIN_VERSION}.jar`,
    sha256: 'e640042084a9f23436ce11430c4424832be783e0171f2c6b0e5eb9175a6c01c5',
  },
  // Resin's default web-app maps *.php to Quercus, its PHP in Java; without it Resin warns at every start
  {
    path: `com/caucho/quercus/${RESIN_VERSION}/quercus-${RESIN_VERSION}.jar`,
    sha256: 'c0a95b61dfe0b805a5d857f5375df85d200e416d7a80ac93c2410488f4302efc',
  },
  {
    path: 'javax/activation/activation/1.1/activation-1.1.jar',
    sha256: '2881c79c9d6ef01c58e62beea13e9d1ac8b8baa16f2fc198ad6e6776defdcdd3',
  },
  { path: 'javax/mail/mail/1.4.1/mail-1.4.1.jar', sha256: '294f0b3fbc55e0fcf7b20370a57846f5d7edf9f5cfa7dfaea01eb1aad178eac3' },
];

/** Resin 4 embedded (article 000's fastest Java engine, then Resin 1.1), the same servlets compiled for javax.servlet. */
export const javaResinTarget: TargetPlugin = createServletTarget({
  name: 'java-resin',
  description: 'Resin 4 embedded (from Maven Central), the same servlets compiled for javax.servlet',
  api: 'javax',
  mainClass: 'bench.resin.ResinServer',
  mainSource: 'bench/resin/ResinServer.java',
  jars: () => [],
  mavenJars: RESIN_JARS,
  versions: () => ({ resin: RESIN_VERSION }),
  // Resin's own thread-max (what ThreadPool reports after an embedded start), where Tomcat and Jetty default to 200
  maxThreads: 4096,
  // Resin has no per-connection request limit (its keepalive-max counts connections)
  limitsKeepAlive: false,
  protocolsNote:
    'bench starts Resin 4 through its embedding API with a plain HTTP port only; its TLS port (JSSE or its OpenSSL module) is not wired in yet',
  settings: {},
});
