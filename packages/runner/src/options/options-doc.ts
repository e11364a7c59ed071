import { rangeText } from '@bench/core';
import { commandOptions, commandTable, type CommandName, type CommandOption } from './command-table.js';

// docs/running.md's "Other commands' options", written from the table: one line per flag of every command but
// `bench run` (whose options have their own table there), as --help gives them.

/** The lines around the written part of docs/running.md. */
export const OPTIONS_DOC_START = '<!-- written from packages/runner/src/options/command-table.ts (options-doc.test.ts checks it) -->';
export const OPTIONS_DOC_END = '<!-- end of what command-table.ts writes -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => `\`${cell(text)}\``;
const isSwitch = (flags: string) => !/[<[]/.test(flags);

function defaultCell(option: CommandOption): string {
  const { declaration, override, shownDefault } = option;
  if (override?.required) return 'required';
  if (shownDefault === undefined) return isSwitch(option.flags) ? 'off' : '';
  // a value (given as one, or written as one: "10", "1,2") in code; a phrase as it is, unless it looks like markup
  const isValue = override?.defaultText === undefined && (override?.default !== undefined || declaration.defaultText === undefined);
  return isValue || /^[\d.,]+$/.test(shownDefault) || shownDefault.includes('<') ? code(shownDefault) : cell(shownDefault);
}

function meaningCell(option: CommandOption): string {
  const { declaration, override } = option;
  const parts = [
    cell(declaration.description),
    ...(override?.list ? ['a comma-separated list, each measured'] : []),
    ...(declaration.range ? [rangeText(declaration.range)] : []),
    ...(override?.choices ? [`one of ${override.choices.map(code).join(', ')}`] : []),
    ...(override?.why ? [`here: ${cell(override.why)}`] : []),
  ];
  // a run's option: its line in the run's table says more
  return `${parts.join('; ')}${option.runOption ? " (`bench run`'s, [above](#options))" : ''}`;
}

/** One command's table: its flags, each with its default on this command and what it does. */
export function commandOptionsTable(name: CommandName): string {
  const rows = commandOptions(name).map((option) => `| ${code(option.flags)} | ${defaultCell(option)} | ${meaningCell(option)} |`);
  return ['| option | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The written part of docs/running.md: a table for each command that takes flags, `bench run` aside. */
export function commandOptionsDoc(): string {
  const names = (Object.keys(commandTable) as CommandName[]).filter((name) => name !== 'run' && commandTable[name].options.length > 0);
  return names
    .map((name) => `### ${name === 'bench' ? '`bench` (every command)' : `\`bench ${name}\``}\n\n${commandOptionsTable(name)}\n`)
    .join('\n');
}
