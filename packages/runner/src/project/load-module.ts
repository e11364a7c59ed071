import { pathToFileURL } from 'node:url';

/** The default export of a JavaScript or TypeScript module (TypeScript through jiti, loaded when one is: no build step). */
export async function importDefault(file: string): Promise<unknown> {
  if (/\.[mc]?ts$/.test(file)) {
    const { createJiti } = await import('jiti');
    return createJiti(pathToFileURL(file).href).import(file, { default: true });
  }
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  return module.default;
}

export const looksLikePath = (spec: string): boolean =>
  spec.startsWith('.') || spec.startsWith('/') || spec.includes('/') || /\.[mc]?[jt]s$/.test(spec);
