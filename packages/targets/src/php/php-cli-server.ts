import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type Scenario, type TargetPlugin } from '@bench/core';
import { makeStackDir, startStack } from '../support/stack.js';
import { availabilityOf, cores } from '../support/probe.js';
import { servesMany } from '../support/serves-many.js';
import { handlerFile, layoutSite } from '../support/site.js';
import { phpCli, phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni } from './php-common.js';

// php -S ends dynamic answers by closing the connection, with neither Content-Length nor chunking;
// the router buffers the script's output to send a Content-Length, and leaves files to the server.
// A scenario at its own path (/json) runs its script; any other path the index.php of its folder
// (a mounted scenario's folder is linked under the document root), or the document root's.
function router(routes: Readonly<Record<string, string>>): string {
  return `<?php
$routes = ${phpArray(routes)};
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (isset($routes[$path])) {
    $script = $routes[$path];
} else {
    $file = $_SERVER['DOCUMENT_ROOT'] . $path;
    if ($path !== '/' && is_file($file)) {
        return false;
    }
    $script = is_file($file . '/index.php') ? $file . '/index.php' : $_SERVER['DOCUMENT_ROOT'] . '/index.php';
}
ob_start();
require $script;
header('Content-Length: ' . ob_get_length());
ob_end_flush();
`;
}

const phpString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const phpArray = (map: Readonly<Record<string, string>>) =>
  `[${Object.entries(map)
    .map(([key, value]) => `${phpString(key)} => ${phpString(value)}`)
    .join(', ')}]`;

/** The site as php -S serves it: routed scenarios by the router, mounted ones linked at their mount under the document root. */
function cliServerSite(scenarios: readonly Scenario[], dir: string): { root: string; routes: Record<string, string> } {
  const site = layoutSite(scenarios, dir);
  const routes: Record<string, string> = {};
  for (const served of site.scenarios) {
    if (served.route !== undefined) routes[served.route] = handlerFile(served, 'index.php');
    if (served.mount !== undefined) {
      const link = path.join(site.documentRoot, served.mount);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(served.root, link);
    }
  }
  return { root: site.documentRoot, routes };
}

/** PHP's built-in web server, `php -S`, with PHP_CLI_SERVER_WORKERS processes. */
export const phpCliServerTarget: TargetPlugin = {
  name: 'php-cli-server',
  language: 'php',
  description: 'php -S (built-in server) with PHP_CLI_SERVER_WORKERS',
  processNames: ['router.php'],
  protocolsNote: "PHP's built-in web server (php -S) speaks cleartext HTTP/1.1 only",
  supports: phpSupports('apcu'),
  async available() {
    return availabilityOf([{ binary: 'php', path: phpCli(), aptPackage: 'php-cli' }], () => ({ php: phpVersion(phpCli() ?? 'php') }));
  },
  ...servesMany(async (scenarios, options) => {
    const host = listenHost(options);
    const port = await choosePort(options.port, host);
    const dir = makeStackDir('php-cli-server');
    const workers = options.workers ?? cores();
    const ini = writePhpIni(dir);
    const site = cliServerSite(scenarios, dir);
    const routerFile = path.join(dir, 'router.php');
    writeFileSync(routerFile, router(site.routes));
    const php = phpCli() ?? 'php';
    return startStack({
      target: 'php-cli-server',
      scenarios,
      host,
      port,
      dir,
      processes: [
        {
          name: 'php-cli-server',
          command: php,
          args: ['-c', ini, '-S', `${host}:${port}`, '-t', site.root, routerFile],
          cwd: site.root,
          env: { ...process.env, ...phpScriptEnvironment(options.services, 'apcu'), PHP_CLI_SERVER_WORKERS: String(workers) },
        },
      ],
      settings: {
        php: phpVersion(php),
        workers,
        router: 'buffers output for Content-Length',
        opcache: true,
        persistentConnections: phpPersistent(),
        outputCache: false,
      },
    });
  }),
};
