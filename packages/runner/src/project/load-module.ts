import { pathToFileURL } from 'node:url';
import { createJiti } from 'jiti';

/** The default export of a JavaScript or TypeScript module (TypeScript through jiti, no build step). */
export async function importDefault(file: string): Promise<unknown> {
  if (/\.[mc]?ts$/.test(file)) return createJiti(pathToFileURL(file).href).import(file, { default: true });
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  return module.default;
}

export const looksLikePath = (spec: string): boolean =>
  spec.startsWith('.') || spec.startsWith('/') || spec.includes('/') || /\.[mc]?[jt]s$/.test(spec);
