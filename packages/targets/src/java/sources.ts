import path from 'node:path';
import type { Scenario, ServiceName, Support } from '@bench/core';
import { databaseOf, packageFile } from '@bench/core';
import { handlerSupport } from '../support/folder.js';

export const JAVA_SOURCES_DIR = packageFile(import.meta.url, 'java');

/** A scenario's Java handler: this file beside its manifest, declaring this class in package bench.scenario. */
export const SCENARIO_SERVLET_FILE = 'ScenarioServlet.java';

/** A source file to compile, and for a scenario's servlet the package it is compiled into. */
export interface JavaSource {
  readonly file: string;
  /** Replaces the file's `package bench.scenario;`, so the servlets of several scenarios live side by side. */
  readonly packageName?: string;
}

/** The package a scenario's servlet is compiled into: bench.scenario.<name as an identifier>. */
export const scenarioPackage = (scenario: Scenario): string => `bench.scenario.s_${scenario.name.replace(/[^A-Za-z0-9]/g, '_')}`;

/** The class of a scenario's servlet as compiled. */
export const scenarioServletClass = (scenario: Scenario): string => `${scenarioPackage(scenario)}.ScenarioServlet`;

/** Which servlet API a container implements: Tomcat 10 jakarta.servlet (Servlet 6.0), Jetty 9 and Resin 4 javax.servlet (Servlet 3.1 and 3.0). */
export type ServletApi = 'jakarta' | 'javax';

/** A Java servlet container serves a dynamic scenario through its ScenarioServlet.java; static ones through its DefaultServlet. */
export const servletSupports = (scenario: Scenario): Support => handlerSupport(scenario, SCENARIO_SERVLET_FILE);

const BACKEND_SOURCES: Readonly<Record<ServiceName, string>> = {
  mysql: 'bench/backend/MysqlBackend.java',
  redis: 'bench/backend/RedisBackend.java',
  memcached: 'bench/backend/MemcachedBackend.java',
  postgres: 'bench/backend/PostgresBackend.java',
};

/** The sources one start compiles: the container's main class, and for the dynamic scenarios their servlets and the backends they need. */
export function javaSourcesFor(scenarios: readonly Scenario[], mainSource: string): JavaSource[] {
  const shared = ['bench/server/ServerSettings.java', 'bench/server/PemKeyStore.java', mainSource];
  const dynamic = scenarios.filter((scenario) => scenario.folder?.kind === 'dynamic');
  const services = [...new Set(dynamic.flatMap((scenario) => scenario.services))];
  const backends = services.length > 0 ? ['bench/backend/BackendSettings.java', ...services.map((s) => BACKEND_SOURCES[s])] : [];
  // TechEmpower's database types share World's reads, writes and cache, on MariaDB or PostgreSQL
  if (dynamic.some((scenario) => scenario.tfb !== undefined && databaseOf(scenario) !== undefined))
    backends.push('bench/backend/TfbWorld.java');
  return [
    ...[...shared, ...backends].map((file) => ({ file: path.join(JAVA_SOURCES_DIR, file) })),
    ...dynamic.map((scenario) => ({
      file: path.join(scenario.folder?.dir ?? '', SCENARIO_SERVLET_FILE),
      packageName: scenarioPackage(scenario),
    })),
  ];
}

/** A servlet source moved into a package of its own. */
export function inPackage(text: string, packageName: string | undefined): string {
  return packageName === undefined ? text : text.replace(/^package bench\.scenario;/m, `package ${packageName};`);
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
