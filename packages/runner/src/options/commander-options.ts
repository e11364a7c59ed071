import { Option, type Command } from 'commander';
import { runOptionDeclarations, type RunOptionInput, type RunOptionKey } from './declarations.js';

/** Adds the declared options `keys` to a command, as flags. */
export function addRunOptions(command: Command, keys: readonly RunOptionKey[]): Command {
  for (const key of keys) {
    const declaration = runOptionDeclarations[key];
    const shown =
      declaration.defaultText ??
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- defaults are numbers, strings, booleans or lists of numbers (10,100)
      (declaration.default !== undefined && !declaration.flags.startsWith('--no-') ? String(declaration.default) : undefined);
    const option = new Option(
      declaration.flags,
      shown === undefined ? declaration.description : `${declaration.description} (default: ${shown})`,
    );
    const parse = declaration.parse as ((raw: string, previous?: unknown) => unknown) | undefined;
    if (parse) option.argParser((raw: string, previous: unknown) => parse(raw, previous));
    command.addOption(option);
  }
  return command;
}

/** The declared options the user gave on the command line (not commander's implied defaults). */
export function givenRunOptions(command: Command, keys: readonly RunOptionKey[]): RunOptionInput {
  const values = command.opts();
  const given: Partial<Record<RunOptionKey, unknown>> = {};
  for (const key of keys) {
    const option = command.options.find((o) => o.flags === runOptionDeclarations[key].flags);
    if (!option) continue;
    const attribute = option.attributeName();
    if (command.getOptionValueSource(attribute) === 'cli') given[key] = values[attribute];
  }
  return given as RunOptionInput;
}
