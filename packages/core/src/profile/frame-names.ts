import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Ends the name of a frame bench gave back to a function V8 had inlined into its caller: an inference from the lines
 * of the caller's samples, not a frame V8 sampled.
 */
export const INFERRED_MARK = ' [inferred]';

/** Whether bench inferred this frame (a function V8 inlined, given back its samples). */
export const isInferredFrame = (frame: string): boolean => frame.endsWith(INFERRED_MARK);

/**
 * Where a script is, as frames name it: inside its package for a file under node_modules (`fastify/lib/reply.js`),
 * relative to the target's folder for the app's own files (`server.mjs`, `src/routes/items.mjs`), Node's own modules
 * by their URL (`node:internal/http/server`); a target with no folder of its own (a built-in one, started in a
 * private folder) names its files by their name alone.
 */
export function scriptWhere(url: string, folder?: string): string {
  if (!url.startsWith('file://') && !url.startsWith('/')) return url;
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inModules = file.lastIndexOf('/node_modules/');
  if (inModules >= 0) return file.slice(inModules + '/node_modules/'.length);
  return folder ? path.relative(folder, file) : path.basename(file);
}

/** "checksum server.mjs:30": the function, its script and the line it starts on (from V8's 0-based line). */
export function scriptFrameName(fn: string, url: string, line: number, options: { folder?: string; inferred?: boolean } = {}): string {
  if (!url) return fn;
  return `${fn} ${scriptWhere(url, options.folder)}:${line + 1}${options.inferred ? INFERRED_MARK : ''}`;
}

/**
 * A frame's identity across two versions of an app: its function and file, without the line it starts on (an edit
 * above it moves that) and without the inferred mark (V8 may inline it in one version and not the other). Only a
 * script's frame, named "function file:line", has a line to drop; a native or Java frame is its own identity.
 */
export function frameIdentity(frame: string): string {
  const unmarked = isInferredFrame(frame) ? frame.slice(0, -INFERRED_MARK.length) : frame;
  return unmarked.includes(' ') ? unmarked.replace(/:\d+$/, '') : unmarked;
}
