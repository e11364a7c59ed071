import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { errors } from '@bench/core';
import { javacBinary, jdkRelease } from './jdk.js';
import { inPackage, sourceFor, type JavaSource, type ServletApi } from './sources.js';

const run = promisify(execFile);

export interface CompileRequest {
  readonly api: ServletApi;
  readonly sources: readonly JavaSource[];
  readonly classpath: readonly string[];
  /** The run's private dir: the sources are staged here (renamed for javax). */
  readonly workDir: string;
  /** Where compiled classes are kept between runs; without it they are compiled into workDir every time. */
  readonly cacheDir: string | undefined;
}

const realPath = (file: string): string => (existsSync(file) ? realpathSync(file) : file);

/** A jar as the hash sees it: where it really is, its size and its time (a package upgrade changes them). */
function jarIdentity(file: string): string {
  if (!existsSync(file)) return file;
  const stat = statSync(file);
  return `${realpathSync(file)}:${stat.size}:${stat.mtimeMs}`;
}

let cachedJavacIdentity: Promise<string> | undefined;
/** Which compiler this is: its JDK's release file (read at once), else what javac -version says. */
const javacIdentity = (): Promise<string> => {
  const release = jdkRelease(javacBinary());
  cachedJavacIdentity ??= release
    ? Promise.resolve(`${realPath(javacBinary() ?? 'javac')}\n${release}`)
    : run(javacBinary() ?? 'javac', ['-J-XX:-UsePerfData', '-version'], { encoding: 'utf8' }).then((r) => `${r.stdout}${r.stderr}`.trim());
  return cachedJavacIdentity;
};

/**
 * Compiles the sources for one servlet API with the installed JDK and returns the classes folder.
 * The folder is named after a hash of everything that shapes the classes (API, javac version,
 * the jars behind the classpath, the sources as compiled), so a later start with the same inputs
 * reuses it; it is built beside and renamed into place, so concurrent runs never see half of it.
 */
export async function compileServlets(request: CompileRequest): Promise<string> {
  const texts = request.sources.map(({ file, packageName }) => ({
    name: path.basename(file),
    text: inPackage(sourceFor(request.api, readFileSync(file, 'utf8')), packageName),
  }));
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ api: request.api, javac: await javacIdentity(), classpath: request.classpath.map(jarIdentity), texts }));
  const key = hash.digest('hex').slice(0, 24);
  const target = request.cacheDir ? path.join(request.cacheDir, 'classes', key) : path.join(request.workDir, 'classes');
  if (request.cacheDir && existsSync(target)) return target;

  const staged = texts.map(({ name, text }, index) => {
    const file = path.join(request.workDir, 'java-src', String(index), name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  });
  const building = request.cacheDir ? `${target}.${process.pid}.building` : target;
  mkdirSync(building, { recursive: true });
  try {
    const args = [
      '-J-XX:-UsePerfData',
      '-nowarn',
      '-proc:none',
      '-encoding',
      'UTF-8',
      '-d',
      building,
      '-cp',
      request.classpath.join(':'),
      ...staged,
    ];
    try {
      await run(javacBinary() ?? 'javac', args, { encoding: 'utf8', maxBuffer: 4 * 1024 * 1024 });
    } catch (error) {
      const output = error && typeof error === 'object' && 'stderr' in error ? String(error.stderr) : String(error);
      throw errors.processFailed(`javac failed: ${output.trim().split('\n').slice(0, 12).join(' | ')}`);
    }
    if (building !== target) {
      try {
        renameSync(building, target);
      } catch (error) {
        // another run finished the same classes first: theirs are identical
        if (!existsSync(target)) throw error;
      }
    }
  } finally {
    if (building !== target) rmSync(building, { recursive: true, force: true });
  }
  return target;
}
