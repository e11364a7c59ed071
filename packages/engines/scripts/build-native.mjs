// Builds the wire engine's native core: every native/*.c (not native/fuzz/) into one Node-API addon, with Node-API's
// headers (node-api-headers: node-gyp would fetch Node's headers from the internet), warnings as errors, stripped.
// Binaries go where node-gyp-build looks for them (prebuildify's layout), and the engine loads them with it.
//   node scripts/build-native.mjs            prebuilds/<this platform>-<arch>/ with $CC (else cc): npm run build
//   node scripts/build-native.mjs --all      prebuilds/linux-x64/ and linux-arm64/ with Debian's gcc for each
//                                            (gcc-aarch64-linux-gnu on x64), failing when one cannot be built: npm pack
//   node scripts/build-native.mjs --target linux-arm64        one of them
//   BENCH_NATIVE_OUT=F BENCH_NATIVE_CFLAGS=...  one variant into F (scripts/check/native-sanitizers.sh)
//   node scripts/build-native.mjs --install  at install: nothing where a prebuilt binary loads (or in a checkout, whose
//                                            build makes one); else build/Release/ with $CC (else cc), or one line
//                                            saying that wire runs its js core where there is no compiler
// Only --all and --target fail (exit 1): without a binary the wire engine runs its js core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const sources = readdirSync(join(root, 'native'))
  .filter((file) => file.endsWith('.c'))
  .sort()
  .map((file) => join(root, 'native', file));
// BENCH_NATIVE_CFLAGS replaces the optimisation (and the stripping) for another variant: one under sanitizers
const flags = [
  ...(process.env.BENCH_NATIVE_CFLAGS?.split(' ').filter(Boolean) ?? ['-O2', '-s']),
  '-std=gnu11',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-shared',
  '-fPIC',
  '-fvisibility=hidden',
];
// the platforms a published package carries a binary for, each with the gcc that builds it from any Linux machine
const targets = {
  'linux-x64': { arch: 'x64', gcc: 'x86_64-linux-gnu-gcc', apt: 'gcc-x86-64-linux-gnu' },
  'linux-arm64': { arch: 'arm64', gcc: 'aarch64-linux-gnu-gcc', apt: 'gcc-aarch64-linux-gnu' },
};
// node-gyp-build's tags: any Node with Node-API, on glibc (a musl machine compiles at install)
const prebuildName = 'wire-loop.napi.glibc.node';
const host = `${process.platform}-${process.arch}`;

function headers() {
  try {
    return require('node-api-headers').include_dir;
  } catch {
    // Node's own headers, where its install has them (/usr/include/node beside /usr/bin/node)
    return join(dirname(process.execPath), '..', 'include', 'node');
  }
}

/** Compiles into `out` (written whole or not at all) with `compiler`; the error's first line when it fails. */
function compile(compiler, out) {
  const include = headers();
  if (!existsSync(join(include, 'node_api.h'))) return `no node_api.h in ${include}`;
  // the first folder made for it, removed again when nothing is built
  const made = mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.partial`;
  try {
    execFileSync(compiler, [...flags, `-I${include}`, ...sources, '-o', partial], { stdio: ['ignore', 'inherit', 'pipe'] });
    renameSync(partial, out);
    return undefined;
  } catch (error) {
    rmSync(made ?? partial, { recursive: true, force: true });
    if (error.code === 'ENOENT') return `${compiler}: not found`;
    return error.stderr?.toString().trim().split('\n')[0] || error.message.split('\n')[0];
  }
}

/** The compiler for a target: $CC (else cc) for this machine's own, the target's gcc for another's. */
const compilerFor = (name) => (name === host ? process.env.CC || 'cc' : targets[name].gcc);

function prebuild(name) {
  const why = compile(compilerFor(name), join(root, 'prebuilds', name, prebuildName));
  return why && `${name}: ${why}${name === host ? '' : ` (apt-get install ${targets[name].apt})`}`;
}

function install() {
  // a checkout (its TypeScript sources are not published): npm run build makes the binary
  if (existsSync(join(root, 'src'))) return;
  try {
    require(require('node-gyp-build').path(root));
    return;
  } catch {
    // no binary for this machine, or one that does not load here: compiled below
  }
  const compiler = process.env.CC || 'cc';
  const why =
    process.platform === 'linux' ? compile(compiler, join(root, 'build', 'Release', 'wire-loop.node')) : `${process.platform} has no epoll`;
  console.log(
    why
      ? `@bench/engines: no native core for ${host} (no prebuilt binary; ${why}): wire runs its js core`
      : `@bench/engines: compiled wire's native core for ${host} with ${compiler} (no prebuilt binary)`,
  );
}

const [mode, target] = process.argv.slice(2);
if (mode === '--install') install();
else if (mode === '--all' || mode === '--target') {
  const names = mode === '--all' ? Object.keys(targets) : [target];
  const unknown = names.find((name) => !(name in targets));
  if (unknown !== undefined) {
    console.error(`build-native: no target '${unknown}': ${Object.keys(targets).join(', ')}`);
    process.exit(2);
  }
  const failed = names.map(prebuild).filter(Boolean);
  for (const why of failed) console.error(`build-native: ${why}`);
  if (failed.length > 0) process.exit(1);
  console.log(`build-native: ${names.map((name) => relative(root, join(root, 'prebuilds', name, prebuildName))).join(', ')}`);
} else if (process.env.BENCH_NATIVE_OUT) {
  // a variant built apart (scripts/check/native-sanitizers.sh), loaded through BENCH_WIRE_NATIVE
  const why = compile(process.env.CC || 'cc', process.env.BENCH_NATIVE_OUT);
  if (why) {
    console.error(`build-native: ${why}`);
    process.exit(1);
  }
} else if (!(host in targets)) {
  console.log(`build-native: wire's native core is prebuilt for ${Object.keys(targets).join(' and ')}; on ${host} wire runs its js core`);
} else {
  const why = prebuild(host);
  if (why) console.log(`build-native: wire's native core was not built (${why}); wire runs its js core. A C compiler (gcc) builds it.`);
}
