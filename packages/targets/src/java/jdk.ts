import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { findBinary } from '@bench/core';
import { versionFrom } from '@bench/core';
import { type Requirement } from '../support/probe.js';

/** The Debian package that brings java and javac. */
export const JDK_PACKAGE = 'default-jdk-headless';

export const javaBinary = (): string | undefined => findBinary('java');
export const javacBinary = (): string | undefined => findBinary('javac');

export function jdkRequirements(): Requirement[] {
  return [
    { binary: 'java', path: javaBinary(), aptPackage: JDK_PACKAGE },
    { binary: 'javac', path: javacBinary(), aptPackage: JDK_PACKAGE },
  ];
}

/** The `release` file of the JDK a binary belongs to (JAVA_RUNTIME_VERSION="17.0.15+6-Debian-1deb12u1", ...), or undefined. */
export function jdkRelease(binary: string | undefined): string | undefined {
  if (!binary) return undefined;
  try {
    return readFileSync(path.join(path.dirname(realpathSync(binary)), '..', 'release'), 'utf8');
  } catch {
    return undefined;
  }
}

let cachedJavaVersion: string | undefined;

/** The runtime's version, e.g. 17.0.15: from the JDK's release file, else from java -version (which starts a JVM). */
export function javaVersion(): string {
  cachedJavaVersion ??=
    /^JAVA_VERSION="([^"]+)"/m.exec(jdkRelease(javaBinary()) ?? '')?.[1] ??
    versionFrom(javaBinary() ?? 'java', ['-XX:-UsePerfData', '-version'], /version "([^"]+)"/);
  return cachedJavaVersion;
}

/** A jar of Debian's /usr/share/java, or undefined when its package is not installed. */
export function systemJar(name: string): string | undefined {
  const file = path.join('/usr/share/java', name);
  return existsSync(file) ? file : undefined;
}

/** The version Debian puts beside a jar's plain name (tomcat10-embed-core.jar and tomcat10-embed-core-10.1.60.jar, linked either way). */
export function jarVersion(jar: string | undefined): string {
  if (!jar) return 'unknown';
  const stem = path.basename(jar, '.jar');
  const versioned = readdirSync(path.dirname(jar)).find(
    (file) => file.startsWith(`${stem}-`) && /^\d/.test(file.slice(stem.length + 1)) && file.endsWith('.jar'),
  );
  return versioned ? versioned.slice(stem.length + 1, -'.jar'.length) : 'unknown';
}
