// typescript-eslint with the type-checked rules that catch bugs (floating promises, misused
// promises, unsafe any); formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The few globals our plain JavaScript files use (Node scripts, and the browser script inlined in html reports).
const nodeGlobals = Object.fromEntries(
  ['process', 'Buffer', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'URL', 'fetch', 'performance'].map(
    (name) => [name, 'readonly'],
  ),
);
const browserGlobals = Object.fromEntries(['document', 'window', 'devicePixelRatio', 'console'].map((name) => [name, 'readonly']));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packed/**', 'packages/scenarios/**/fixtures/**', '**/*.d.ts', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // one program for the sources, their tests and the examples (tsconfig.eslint.json): the type-aware rules see the
      // tests too (their types are checked by `npm run typecheck:tests`, part of lint)
      parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // an async method often implements a Promise-returning contract (available(), start()) without awaiting anything
      '@typescript-eslint/require-await': 'off',
      // a run keeps the first failure it caught and rethrows it as is (unknown, narrowed to {} by `!== undefined`)
      '@typescript-eslint/only-throw-error': 'off',
      // a literal beside its base type (number | string | 'failed') documents the sentinel a value may hold
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // a leading _ marks a parameter a callback's signature needs but the body does not use
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // one zod in the packages: @bench/core's bundle carries it, and the others take `z` from there (its types may come
    // from zod itself)
    files: ['packages/**/*.ts'],
    ignores: ['packages/core/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "import z from '@bench/core', whose bundle carries zod", allowTypeImports: true }] },
      ],
    },
  },
  {
    // tests read JSON documents and a CLI's parsed output (any) and check their shape with the assertions themselves
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: nodeGlobals } },
  { files: ['packages/reporters/assets/**/*.js'], languageOptions: { globals: browserGlobals } },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
