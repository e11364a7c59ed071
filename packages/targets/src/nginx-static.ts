import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, type TargetPlugin } from '@bench/core';
import { findBinary } from './support/find-binary.js';
import { nginxArgs, nginxConfig } from './support/nginx-config.js';
import { makeStackDir, startStack } from './support/stack.js';
import { availabilityOf, cores, versionFrom } from './php/php-common.js';

// Scenarios nginx can answer from a file: the static ones, and big (the same 64 KiB block, as a file).
const FILE_FOR: Readonly<Record<string, string>> = { big: 'fixtures/block.txt' };

const nginxVersion = () => versionFrom(findBinary('nginx') ?? 'nginx', ['-v'], /nginx\/(\S+)/);

/** nginx alone: the plain web-server baseline rows of article 000's tables. */
export const nginxStaticTarget: TargetPlugin = {
  name: 'nginx-static',
  language: 'static',
  description: 'nginx alone, serving files (baseline)',
  supports(scenario) {
    if (scenario.kind === 'static' || FILE_FOR[scenario.name]) return { ok: true };
    return { ok: false, reason: 'nginx-static serves files only (file, big, large-file); this scenario needs a program' };
  },
  async available() {
    return availabilityOf([{ binary: 'nginx', path: findBinary('nginx'), aptPackage: 'nginx' }], () => ({ nginx: nginxVersion() }));
  },
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('nginx-static');
    const file = scenario.kind === 'static' ? scenario.staticFile : FILE_FOR[scenario.name];
    const absolute = path.join(scenario.dir, file ?? '');
    const nginxConf = path.join(dir, 'nginx.conf');
    writeFileSync(
      nginxConf,
      nginxConfig({
        dir,
        port,
        root: path.dirname(absolute),
        workers: cores(),
        server: [`location = ${scenario.path} { try_files /${path.basename(absolute)} =404; }`],
      }),
    );
    return startStack({
      target: 'nginx-static',
      scenario,
      port,
      dir,
      processes: [{ name: 'nginx', command: findBinary('nginx') ?? 'nginx', args: nginxArgs(dir, nginxConf) }],
      settings: { nginx: nginxVersion(), workers: cores(), sendfile: true },
    });
  },
};
