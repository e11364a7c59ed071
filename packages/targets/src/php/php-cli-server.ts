import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type TargetPlugin } from '@bench/core';
import { makeStackDir, startStack } from '../support/stack.js';
import { availabilityOf, cores, documentRoot } from '../support/probe.js';
import { phpCli, phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni } from './php-common.js';

// php -S ends dynamic answers by closing the connection, with neither Content-Length nor chunking;
// the router buffers the script's output to send a Content-Length, and leaves files to the server.
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/' && is_file($_SERVER['DOCUMENT_ROOT'] . $path)) {
    return false;
}
ob_start();
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
header('Content-Length: ' . ob_get_length());
ob_end_flush();
`;

/** PHP's built-in web server, `php -S`, with PHP_CLI_SERVER_WORKERS processes. */
export const phpCliServerTarget: TargetPlugin = {
  name: 'php-cli-server',
  language: 'php',
  description: 'php -S (built-in server) with PHP_CLI_SERVER_WORKERS',
  processNames: ['router.php'],
  protocolsNote: "PHP's built-in web server (php -S) speaks cleartext HTTP/1.1 only",
  supports: phpSupports,
  async available() {
    return availabilityOf([{ binary: 'php', path: phpCli(), aptPackage: 'php-cli' }], () => ({ php: phpVersion(phpCli() ?? 'php') }));
  },
  async start(scenario, options) {
    const host = listenHost(options);
    const port = await choosePort(options.port, host);
    const dir = makeStackDir('php-cli-server');
    const workers = options.workers ?? cores();
    const ini = writePhpIni(dir);
    const router = path.join(dir, 'router.php');
    writeFileSync(router, ROUTER);
    const php = phpCli() ?? 'php';
    return startStack({
      target: 'php-cli-server',
      scenario,
      host,
      port,
      dir,
      processes: [
        {
          name: 'php-cli-server',
          command: php,
          args: ['-c', ini, '-S', `${host}:${port}`, '-t', documentRoot(scenario), router],
          cwd: path.resolve(documentRoot(scenario)),
          env: { ...process.env, ...phpScriptEnvironment(options.services), PHP_CLI_SERVER_WORKERS: String(workers) },
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
  },
};
