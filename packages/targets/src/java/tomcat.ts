import type { TargetPlugin } from '@bench/core';
import { jarVersion, systemJar } from './jdk.js';
import { createServletTarget } from './servlet-target.js';

const TOMCAT_JAR = 'tomcat10-embed-core.jar';

/**
 * Tomcat 10 embedded: Debian's libtomcat10-embed-java (the tomcat10 package's own build) run from a
 * main class of bench's. A private CATALINA_BASE started through Bootstrap answered its first request
 * 1.7-1.8 s after launch here, embedded 1.0 s: no server.xml or web.xml to generate, no JSP engine,
 * no jar scanning for TLDs, one jar on the classpath, and every setting in one place.
 */
export const javaTomcatTarget: TargetPlugin = createServletTarget({
  name: 'java-tomcat',
  description: 'Tomcat 10 embedded (NIO connector), one servlet per scenario',
  api: 'jakarta',
  mainClass: 'bench.tomcat.TomcatServer',
  mainSource: 'bench/tomcat/TomcatServer.java',
  jars: () => [{ binary: TOMCAT_JAR, path: systemJar(TOMCAT_JAR), aptPackage: 'libtomcat10-embed-java' }],
  versions: () => ({ tomcat: jarVersion(systemJar(TOMCAT_JAR)) }),
  limitsKeepAlive: true,
  protocols: ['http1', 'https', 'h2', 'h2c'],
  settings: { connector: 'nio' },
});
