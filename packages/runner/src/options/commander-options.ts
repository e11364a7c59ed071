import { Option, type Command } from 'commander';
import { rangeText, type OptionTable } from '@bench/core';
import { runOptionDeclarations, type RunOptionInput } from './declarations.js';
import { commandOption, commandOptions, type CommandName, type CommandOption, type OptionKey } from './command-table.js';

/** A parser a command puts in place of a declaration's, to gather the values itself (reporters and their --out files, in order). */
export type GatheringParsers = { readonly [K in OptionKey]?: (raw: string, previous?: unknown) => unknown };

/** --help's line of an option: its description, then its default and its range. */
export function helpDescription(option: CommandOption): string {
  const { declaration, shownDefault, override } = option;
  const notes = [
    ...(override?.list ? ['a comma-separated list, each measured'] : []),
    ...(shownDefault === undefined ? [] : [`default: ${shownDefault}`]),
    ...(declaration.range ? [rangeText(declaration.range)] : []),
  ];
  return notes.length === 0 ? declaration.description : `${declaration.description} (${notes.join('; ')})`;
}

function addOption(command: Command, option: CommandOption, gather?: (raw: string, previous?: unknown) => unknown): void {
  const added = new Option(option.flags, helpDescription(option));
  const parse = gather ?? option.parse;
  if (parse) added.argParser((raw: string, previous: unknown) => parse(raw, previous));
  if (option.override?.choices) added.choices(option.override.choices);
  if (option.override?.required) added.makeOptionMandatory();
  command.addOption(added);
  // as commander's own default would, without its "(default: ...)" beside ours in --help
  if (option.filled !== undefined) command.setOptionValueWithSource(added.attributeName(), option.filled, 'default');
}

/**
 * Adds a command's flags from the table (command-table.ts): each option from its one declaration, with the command's
 * overrides; `runTable` gives `bench run` a project's options (its config's engines' too).
 */
export function addCommandOptions(
  command: Command,
  name: CommandName,
  how: { readonly runTable?: OptionTable; readonly gather?: GatheringParsers } = {},
): Command {
  for (const option of commandOptions(name, how.runTable)) addOption(command, option, how.gather?.[option.key as OptionKey]);
  return command;
}

/** Adds the declared run options `keys` to a command, as flags (of `table`: bench's own, or a project's with its engines'). */
export function addRunOptions(command: Command, keys: readonly string[], table: OptionTable = runOptionDeclarations): Command {
  for (const key of keys) if (table[key]) addOption(command, commandOption(key, undefined, table));
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
