/**
 * The environment of a test that checks the JVM targets' answers, not their speed: the java launcher adds
 * JDK_JAVA_OPTIONS to every JVM a run starts, and with C1 alone (no C2 compiles of the containers' start-up code) a
 * `bench verify hello` of the three containers took 2.9 s of the JVMs' CPU against 4.3, and every-target.test.ts 20.5 s
 * against 24.8 (2026-11-29). The launcher says so in a NOTE on the JVM's stderr.
 */
export const answersOnlyJvms: NodeJS.ProcessEnv = { JDK_JAVA_OPTIONS: '-XX:TieredStopAtLevel=1' };
