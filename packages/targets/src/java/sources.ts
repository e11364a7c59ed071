import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario, ServiceName, Support } from '@bench/core';
import { handlerSupport } from '../support/folder.js';

// packages/targets/dist/java/sources.js -> packages/targets/java
export const JAVA_SOURCES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'java');

/** A scenario's Java handler: this file beside its manifest, declaring this class. */
export const SCENARIO_SERVLET_FILE = 'ScenarioServlet.java';
export const SCENARIO_SERVLET_CLASS = 'bench.scenario.ScenarioServlet';

/** Which servlet API a container implements: Tomcat 10 jakarta.servlet (Servlet 6.0), Jetty 9 and Resin 4 javax.servlet (Servlet 3.1 and 3.0). */
export type ServletApi = 'jakarta' | 'javax';

/** A Java servlet container serves a dynamic scenario through its ScenarioServlet.java; static ones through its DefaultServlet. */
export const servletSupports = (scenario: Scenario): Support => handlerSupport(scenario, SCENARIO_SERVLET_FILE);

const BACKEND_SOURCES: Readonly<Record<ServiceName, string>> = {
  mysql: 'bench/backend/MysqlBackend.java',
  redis: 'bench/backend/RedisBackend.java',
  memcached: 'bench/backend/MemcachedBackend.java',
};

/** The sources one start compiles: the container's main class, and for a dynamic scenario its servlet and the backends it needs. */
export function javaSourcesFor(scenario: Scenario, mainSource: string): string[] {
  const shared = ['bench/server/ServerSettings.java', 'bench/server/PemKeyStore.java', mainSource];
  const folder = scenario.folder;
  if (!folder || folder.kind === 'static') return shared.map((file) => path.join(JAVA_SOURCES_DIR, file));
  const backends =
    scenario.services.length > 0 ? ['bench/backend/BackendSettings.java', ...scenario.services.map((s) => BACKEND_SOURCES[s])] : [];
  return [...[...shared, ...backends].map((file) => path.join(JAVA_SOURCES_DIR, file)), path.join(folder.dir, SCENARIO_SERVLET_FILE)];
}

/**
 * One source for both servlet APIs: the servlets and backends are written against jakarta.servlet
 * (Servlet 5+, Tomcat 10), and the javax.servlet variant Jetty 9 needs is derived at compile time by
 * renaming the package, nothing else: the classes and methods the servlets use (HttpServlet, doGet,
 * getWriter, getOutputStream, setContentType, setHeader, setDateHeader, init parameters) are the same
 * in Servlet 3.1 and 6.0. This is the rename Tomcat's own javax-to-jakarta migration tool performs,
 * run the other way; a servlet that used an API newer than 3.1 would fail to compile for Jetty.
 */
export function sourceFor(api: ServletApi, text: string): string {
  return api === 'javax' ? text.replace(/\bjakarta\.servlet\./g, 'javax.servlet.') : text;
}
