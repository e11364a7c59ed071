import { CommanderError } from 'commander';
import { messageOf, isBenchError, killAllGroupsNow, removeStaleDirs } from '@bench/core';
import { commandLineProject } from './plugin-names.js';
import { buildProgram } from './program.js';
import { argvRedaction } from '../redact/argv-redaction.js';

// Every line bench prints before a run's own redaction exists (an option's error, a crash) holds no secret of the
// command line: the user info of a URL, a secret header, an ssh:// user.
const shown = argvRedaction(process.argv.slice(2));

// A reader that stopped reading (`bench --help | head -3`) is no crash: what would have gone to it is dropped, and the
// run goes on to its end (its files, its servers stopped).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
});

// A crash of the runner itself must not leave servers behind.
process.on('uncaughtException', (error) => {
  killAllGroupsNow();
  process.stderr.write(shown.text(`bench: internal error: ${error.stack ?? error.message}\n`));
  process.exit(1);
});

/** Runs the CLI and returns the exit code: 0 ok, 1 a stack or machine failed (or a regression), 2 bad input, 3 an undecided --fail-if gate, 130 interrupted. */
export async function main(argv: readonly string[]): Promise<number> {
  const debug = argv.includes('--debug');
  // help lists every plugin by name, the config's own included; other commands need only the registries
  const wantsHelp = argv.length <= 2 || argv.includes('--help') || argv.includes('-h') || argv[2] === 'help';
  // private dirs of earlier runs whose runner was killed before its watcher could act
  removeStaleDirs();
  try {
    const { plugins, optionTable } = await commandLineProject(argv, wantsHelp);
    const program = buildProgram(plugins, optionTable, shown);
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed its one-line message; help and version are not errors
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isBenchError(error)) {
      // the code first, so a script or a search of docs/errors.md finds what it means and what to do
      process.stderr.write(shown.text(`bench: ${error.code}: ${error.message}\n`));
      if (debug)
        process.stderr.write(shown.text(`${error.stack ?? ''}\n${error.cause instanceof Error ? `cause: ${error.cause.stack}\n` : ''}`));
      return error.exitCode;
    }
    const message = messageOf(error);
    process.stderr.write(shown.text(`bench: unexpected error: ${message}${debug ? '' : ' (run again with --debug for details)'}\n`));
    if (debug && error instanceof Error) process.stderr.write(shown.text(`${error.stack}\n`));
    return 1;
  } finally {
    killAllGroupsNow();
  }
}
