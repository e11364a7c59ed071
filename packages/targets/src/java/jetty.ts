import type { TargetPlugin } from '@bench/core';
import { jarVersion, systemJar } from './jdk.js';
import { createServletTarget } from './servlet-target.js';

// What an embedded Jetty 9 with a servlet context needs, from Debian's libjetty9-java (the jars of
// the jetty9 package), and the javax.servlet API from libservlet-api-java.
const JETTY_JARS = [
  'jetty9-server.jar',
  'jetty9-http.jar',
  'jetty9-io.jar',
  'jetty9-util.jar',
  'jetty9-servlet.jar',
  'jetty9-security.jar',
  // HTTP/2 (h2 by ALPN, h2c) and ALPN over the JDK's own TLS
  'jetty9-http2-server.jar',
  'jetty9-http2-common.jar',
  'jetty9-http2-hpack.jar',
  'jetty9-alpn-server.jar',
  'jetty9-alpn-java-server.jar',
];
const SERVLET_API_JAR = 'servlet-api.jar';

/** Jetty 9 embedded, the servlets compiled for javax.servlet (see sources.ts). */
export const javaJettyTarget: TargetPlugin = createServletTarget({
  name: 'java-jetty',
  description: 'Jetty 9 embedded, the same servlets compiled for javax.servlet',
  api: 'javax',
  mainClass: 'bench.jetty.JettyServer',
  mainSource: 'bench/jetty/JettyServer.java',
  jars: () => [
    ...JETTY_JARS.map((jar) => ({ binary: jar, path: systemJar(jar), aptPackage: 'libjetty9-java' })),
    { binary: SERVLET_API_JAR, path: systemJar(SERVLET_API_JAR), aptPackage: 'libservlet-api-java' },
  ],
  versions: () => ({ jetty: jarVersion(systemJar('jetty9-server.jar')) }),
  // Jetty 9 has no per-connection request limit: a kept-alive connection serves until the client closes it
  limitsKeepAlive: false,
  protocols: ['http1', 'https', 'h2', 'h2c'],
  settings: {},
});
