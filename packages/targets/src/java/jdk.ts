import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { findBinary } from '../support/find-binary.js';
import { versionFrom, type Requirement } from '../support/probe.js';

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

let cachedJavaVersion: string | undefined;

/** The runtime's version, e.g. 17.0.15 (java -version prints it on stderr). */
export function javaVersion(): string {
  cachedJavaVersion ??= versionFrom(javaBinary() ?? 'java', ['-XX:-UsePerfData', '-version'], /version "([^"]+)"/);
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
  const versioned = readdirSync(path.dirname(jar)).find((file) => file.startsWith(`${stem}-`) && /^\d/.test(file.slice(stem.length + 1)) && file.endsWith('.jar'));
  return versioned ? versioned.slice(stem.length + 1, -'.jar'.length) : 'unknown';
}
