import path from 'node:path';
import type { TargetPlugin } from '@bench/core';
import { findBinary } from './support/find-binary.js';
import { nginxVersion } from './support/nginx-config.js';
import { startNginxStack } from './support/nginx-stack.js';
import { availabilityOf } from './support/probe.js';

// Scenarios nginx can answer from a file: the static ones, and big (the same 64 KiB block, as a file).
const FILE_FOR: Readonly<Record<string, string>> = { big: 'fixtures/block.txt' };

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
  start(scenario, options) {
    const file = path.join(scenario.dir, (scenario.kind === 'static' ? scenario.staticFile : FILE_FOR[scenario.name]) ?? '');
    return startNginxStack({
      target: 'nginx-static',
      scenario,
      options,
      root: path.dirname(file),
      server: () => [`location = ${scenario.path} { try_files /${path.basename(file)} =404; }`],
      settings: { sendfile: true },
    });
  },
};
