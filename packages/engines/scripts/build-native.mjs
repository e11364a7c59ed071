// Builds the wire engine's native core (native/*.c) into dist/native/wire-loop.node with the system's C
// compiler ($CC, else cc) and Node-API's headers. Where there is no compiler (or not Linux), it says so in one line and
// the wire engine runs its JavaScript core: the build does not fail for it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const native = join(here, '..', 'native');
// every C file of the core (native/fuzz/ holds the fuzzing harness, built by scripts/fuzz-framer.sh)
const sources = readdirSync(native)
  .filter((name) => name.endsWith('.c'))
  .map((name) => join(native, name));
// BENCH_NATIVE_OUT and BENCH_NATIVE_CFLAGS build another variant (scripts/native-sanitizers.sh: one under sanitizers)
const target = process.env.BENCH_NATIVE_OUT || join(here, '..', 'dist', 'native', 'wire-loop.node');

function headers() {
  try {
    return createRequire(import.meta.url)('node-api-headers').include_dir;
  } catch {
    // Node's own headers, where its install has them (/usr/include/node beside /usr/bin/node)
    return join(dirname(process.execPath), '..', 'include', 'node');
  }
}

if (process.platform !== 'linux') {
  console.log(`build-native: wire's native core is for Linux (epoll); on ${process.platform} wire runs its js core`);
  process.exit(0);
}
const include = headers();
const compiler = process.env.CC || 'cc';
mkdirSync(dirname(target), { recursive: true });
try {
  if (!existsSync(join(include, 'node_api.h'))) throw new Error(`no node_api.h in ${include}`);
  execFileSync(
    compiler,
    [
      ...(process.env.BENCH_NATIVE_CFLAGS?.split(' ').filter(Boolean) ?? ['-O2']),
      '-std=gnu11',
      '-Wall',
      '-Wextra',
      '-Werror',
      '-shared',
      '-fPIC',
      '-fvisibility=hidden',
      `-I${include}`,
      ...sources,
      '-o',
      target,
    ],
    {
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
} catch (error) {
  const why = error.code === 'ENOENT' ? `${compiler}: not found` : (error.stderr?.toString().trim().split('\n')[0] ?? error.message);
  console.log(`build-native: wire's native core was not built (${why}); wire runs its js core. A C compiler (gcc) builds it.`);
}
