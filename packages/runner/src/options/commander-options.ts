import { Option, type Command } from 'commander';
import { rangedParse, rangeText, type OptionTable } from '@bench/core';
import { runOptionDeclarations, type RunOptionInput } from './declarations.js';

/** Adds the declared options `keys` to a command, as flags (of `table`: bench's own, or a project's with its engines'). */
export function addRunOptions(command: Command, keys: readonly string[], table: OptionTable = runOptionDeclarations): Command {
  for (const key of keys) {
    const declaration = table[key];
    if (!declaration) continue;
    const shown =
      declaration.defaultText ??
      (declaration.default !== undefined && !declaration.flags.startsWith('--no-') ? String(declaration.default) : undefined);
    const notes = [...(shown === undefined ? [] : [`default: ${shown}`]), ...(declaration.range ? [rangeText(declaration.range)] : [])];
    const option = new Option(
      declaration.flags,
      notes.length === 0 ? declaration.description : `${declaration.description} (${notes.join('; ')})`,
    );
    const parse = rangedParse(declaration);
    if (parse) option.argParser((raw: string, previous: unknown) => parse(raw, previous));
    command.addOption(option);
  }
  return command;
}

/** The declared options the user gave on the command line (not commander's implied defaults). */
export function givenRunOptions(command: Command, keys: readonly string[], table: OptionTable = runOptionDeclarations): RunOptionInput {
  const values = command.opts();
  const given: Record<string, unknown> = {};
  for (const key of keys) {
    const option = command.options.find((o) => o.flags === table[key]?.flags);
    if (!option) continue;
    const attribute = option.attributeName();
    if (command.getOptionValueSource(attribute) === 'cli') given[key] = values[attribute];
  }
  return given;
}
