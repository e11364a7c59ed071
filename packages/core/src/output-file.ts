import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { errors } from './errors.js';

/** Throws the output-file error unless `file` can be created or overwritten; checked before a run starts anything. */
export function assertWritableFile(file: string): void {
  const dir = path.dirname(path.resolve(file));
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch {
    throw errors.outputFile(file, `the directory ${dir} does not exist`);
  }
  if (!dirStat.isDirectory()) throw errors.outputFile(file, `${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw errors.outputFile(file, `no permission to write in ${dir}`);
  }
  try {
    if (statSync(file).isDirectory()) throw errors.outputFile(file, 'it is a directory');
    accessSync(file, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    if ((error as NodeJS.ErrnoException).code === 'EACCES') throw errors.outputFile(file, 'no permission to overwrite it');
    throw error;
  }
}
