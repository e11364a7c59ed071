import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  messageOf,
  benchCacheDir,
  choosePort,
  errors,
  listenHost,
  removeDir,
  routeOf,
  type Protocol,
  type Scenario,
  type TargetPlugin,
  type TargetStartOptions,
} from '@bench/core';
import { DEFAULT_POOL_SIZE, listenBacklog } from '../node/node-target.js';
import { folderOf } from '../support/folder.js';
import { availabilityOf, documentRoot, type Requirement } from '../support/probe.js';
import { serviceEnvironment } from '../support/service-env.js';
import { makeStackDir, startStack } from '../support/stack.js';
import { clientJarsFor, clientRequirements, clientVersions } from './client-jars.js';
import { compileServlets } from './compile.js';
import { fetchPinnedJars, type PinnedJar } from './maven-jars.js';
import { javaBinary, javaVersion, jdkRequirements } from './jdk.js';
import { javaSourcesFor, scenarioServletClass, servletSupports, type ServletApi } from './sources.js';
import { servesMany } from '../support/serves-many.js';
import { JIT_WARM_UP, jitWarmUpEnabled, warmUp } from './warm-up.js';

/** Worker threads, the containers' own default unless one says otherwise (Tomcat's maxThreads, Jetty's QueuedThreadPool). */
const MAX_THREADS = 200;

/** Requests per kept-alive connection where the container has a limit (Tomcat; Jetty 9 has none): Apache's and nginx's 1000, so keep-alive means the same on every server. */
const MAX_KEEP_ALIVE_REQUESTS = 1000;

/** BENCH_JAVA_POOL=1 keeps a pool of --pool-size backend connections per JVM; by default a connection per request, as PHP. */
export const javaPooled = (): boolean => process.env.BENCH_JAVA_POOL === '1';

/** What differs between the servlet containers; everything else is one target. */
export interface ServletContainer {
  readonly name: string;
  readonly description: string;
  readonly api: ServletApi;
  /** The embedded server's main class and its source, relative to packages/targets/java. */
  readonly mainClass: string;
  readonly mainSource: string;
  /** The container's jars from the system (with the packages that bring them). */
  readonly jars: () => Requirement[];
  /** The container's jars from Maven Central, pinned, fetched once at first start (as Jedis). */
  readonly mavenJars?: readonly PinnedJar[];
  /** Its worker threads, where its own default is not MAX_THREADS. */
  readonly maxThreads?: number;
  readonly versions: () => Record<string, string>;
  /** Whether the container ends a kept-alive connection after MAX_KEEP_ALIVE_REQUESTS. */
  readonly limitsKeepAlive: boolean;
  /** Settings of this container that shape the numbers. */
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  /** What its connector serves (`--protocol`), HTTP/1.1 only when absent, and why not more. */
  readonly protocols?: readonly Protocol[];
  readonly protocolsNote?: string;
}

async function classpathFor(
  container: ServletContainer,
  scenarios: readonly Scenario[],
  dir: string,
  cacheDir: string | undefined,
): Promise<{ jars: string[]; classes: string }> {
  const mavenDir = path.join(cacheDir ?? dir, 'maven');
  const containerJars = [
    ...container.jars().map((jar) => jar.path ?? jar.binary),
    ...(await fetchPinnedJars(container.mavenJars ?? [], mavenDir)),
  ];
  const clientJars = await clientJarsFor(scenarios, mavenDir);
  const jars = [...containerJars, ...clientJars];
  const classes = await compileServlets({
    api: container.api,
    sources: javaSourcesFor(scenarios, container.mainSource),
    classpath: jars,
    workDir: dir,
    cacheDir,
  });
  return { jars, classes };
}

/**
 * What the container serves, one line a scenario (ServerSettings reads it): a servlet at every path for one scenario
 * alone, else at its mount or its own path; a static folder at / alone, else under its mount.
 */
export function servedLines(scenarios: readonly Scenario[]): string[] {
  const alone = scenarios.length === 1 && scenarios[0]?.mount === undefined;
  return scenarios.map((scenario) => {
    const folder = folderOf(scenario);
    if (folder.kind === 'static') return ['folder', alone ? '' : (scenario.mount ?? ''), documentRoot(scenario)].join('\t');
    const mapping = alone ? '/*' : scenario.mount !== undefined ? `${scenario.mount}/*` : routeOf(scenario);
    return ['servlet', mapping, scenarioServletClass(scenario), folder.fixturesDir].join('\t');
  });
}

function jvmArguments(
  container: ServletContainer,
  scenarios: readonly Scenario[],
  options: TargetStartOptions,
  port: number,
  dir: string,
  classpath: readonly string[],
): string[] {
  const served = path.join(dir, 'served.tsv');
  writeFileSync(served, `${servedLines(scenarios).join('\n')}\n`);
  return [
    // no hsperfdata file in /tmp; temp files in the private dir
    '-XX:-UsePerfData',
    `-Djava.io.tmpdir=${dir}`,
    // an IPv4 socket on 127.0.0.1 (by default the JVM listens on an IPv6 socket, bound to ::ffff:127.0.0.1)
    '-Djava.net.preferIPv4Stack=true',
    `-Dbench.host=${listenHost(options)}`,
    `-Dbench.port=${port}`,
    `-Dbench.backlog=${listenBacklog(options.maxConcurrency)}`,
    `-Dbench.maxThreads=${container.maxThreads ?? MAX_THREADS}`,
    `-Dbench.maxKeepAliveRequests=${MAX_KEEP_ALIVE_REQUESTS}`,
    `-Dbench.workDir=${dir}`,
    ...(options.protocol && options.protocol !== 'http1' ? [`-Dbench.protocol=${options.protocol}`] : []),
    ...(options.tls ? [`-Dbench.certFile=${options.tls.certFile}`, `-Dbench.keyFile=${options.tls.keyFile}`] : []),
    `-Dbench.served=${served}`,
    '-cp',
    classpath.join(':'),
    container.mainClass,
  ];
}

/** A Java servlet container started by bench, embedded in a main class of its own, serving one scenario's servlet. */
export function createServletTarget(container: ServletContainer): TargetPlugin {
  return {
    name: container.name,
    language: 'java',
    description: container.description,
    processNames: [container.mainClass],
    ...(container.protocols ? { protocols: container.protocols } : {}),
    ...(container.protocolsNote ? { protocolsNote: container.protocolsNote } : {}),
    supports: servletSupports,
    async available() {
      return availabilityOf([...jdkRequirements(), ...container.jars(), ...clientRequirements()], () => ({
        java: javaVersion(),
        ...container.versions(),
        ...clientVersions(),
      }));
    },
    ...servesMany(async (scenarios, options) => {
      const names = scenarios.map((s) => s.name).join(', ');
      const port = await choosePort(options.port, listenHost(options));
      const dir = makeStackDir(container.name);
      let classpath: string[];
      try {
        const { jars, classes } = await classpathFor(container, scenarios, dir, benchCacheDir('java'));
        classpath = [classes, ...jars];
      } catch (error) {
        removeDir(dir);
        throw errors.targetStart(container.name, names, messageOf(error), error);
      }
      const pooled = javaPooled();
      const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
      const running = await startStack({
        target: container.name,
        scenarios,
        host: listenHost(options),
        port,
        dir,
        processes: [
          {
            name: container.name,
            command: javaBinary() ?? 'java',
            args: jvmArguments(container, scenarios, options, port, dir, classpath),
            env: {
              ...process.env,
              ...serviceEnvironment(options.services),
              BENCH_JAVA_POOL: pooled ? '1' : '0',
              BENCH_JAVA_POOL_SIZE: String(poolSize),
            },
          },
        ],
        settings: {
          java: javaVersion(),
          ...container.versions(),
          servletApi: container.api,
          maxThreads: container.maxThreads ?? MAX_THREADS,
          maxKeepAliveRequests: container.limitsKeepAlive ? MAX_KEEP_ALIVE_REQUESTS : 'unlimited',
          backlog: listenBacklog(options.maxConcurrency),
          ...container.settings,
          persistentConnections: pooled,
          ...(pooled ? { poolSize } : {}),
          ...(options.protocol && options.protocol !== 'http1' ? { protocol: options.protocol } : {}),
        },
        ...(options.protocol ? { protocol: options.protocol } : {}),
        ...(options.tls ? { tls: options.tls } : {}),
      });
      if (!options.warmUp || !jitWarmUpEnabled()) return { ...running, settings: { ...running.settings, jitWarmUpRequests: 0 } };
      let done;
      try {
        // the JIT is warmed on the first scenario's path (bench run starts a stack per scenario)
        done = await warmUp(running.url + (scenarios[0]?.request.path ?? '/'), JIT_WARM_UP, options.tls?.caFile);
      } catch (error) {
        await running.stop();
        throw errors.targetStart(container.name, names, `warm-up failed: ${messageOf(error)}`, error);
      }
      return { ...running, settings: { ...running.settings, jitWarmUpRequests: done.requests, jitWarmUpSeconds: done.seconds } };
    }),
  };
}
