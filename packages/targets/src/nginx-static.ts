import path from 'node:path';
import type { TargetPlugin } from '@bench/core';
import { findBinary } from '@bench/core';
import { NGINX_PROCESS_NAMES, nginxVersion } from './support/nginx-config.js';
import { startNginxStack } from './support/nginx-stack.js';
import { availabilityOf } from './support/probe.js';
import { folderOf, NOT_A_FOLDER } from './support/folder.js';
import { servesMany } from './support/serves-many.js';

// Scenarios nginx can answer from a file: the static ones, and big (the same 64 KiB block, as a file).
const FILE_FOR: Readonly<Record<string, string>> = { big: 'fixtures/block.txt' };

/** nginx alone: the plain web-server baseline rows of article 000's tables. */
export const nginxStaticTarget: TargetPlugin = {
  name: 'nginx-static',
  language: 'static',
  description: 'nginx alone, serving files (baseline)',
  processNames: NGINX_PROCESS_NAMES,
  // nginx's ssl and http2 modules (Debian's nginx has both)
  protocols: ['http1', 'https', 'h2', 'h2c'],
  supports(scenario) {
    if (!scenario.folder) return NOT_A_FOLDER;
    if (scenario.folder.kind === 'static' || FILE_FOR[scenario.name]) return { ok: true };
    return { ok: false, reason: 'nginx-static serves files only (file, big, large-file); this scenario needs a program' };
  },
  async available() {
    return availabilityOf([{ binary: 'nginx', path: findBinary('nginx'), aptPackage: 'nginx' }], () => ({ nginx: nginxVersion() }));
  },
  ...servesMany((scenarios, options) =>
    startNginxStack({
      target: 'nginx-static',
      scenarios,
      options,
      // each file at its scenario's path (under its mount when it has one)
      server: () =>
        scenarios.map((scenario) => {
          const folder = folderOf(scenario);
          const file = path.join(folder.dir, (folder.kind === 'static' ? folder.staticFile : FILE_FOR[scenario.name]) ?? '');
          return `location = ${scenario.request.path} { root ${path.dirname(file)}; try_files /${path.basename(file)} =404; }`;
        }),
      settings: { sendfile: true },
    }),
  ),
};
