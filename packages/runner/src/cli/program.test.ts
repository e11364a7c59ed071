import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { longFlag, type AnyOptionDeclaration } from '@bench/core';
import { buildProgram } from './program.js';
import {
  commandOptionDeclarations,
  commandOptions,
  commandTable,
  helpDescription,
  runOptionDeclarations,
  type CommandName,
} from '../options/index.js';

// Every flag of every command comes from the table (options/command-table.ts), each from its one declaration.

/** Every command of a program, by its words after `bench` (`bench` itself for the program's own flags). */
function commandsOf(command: Command, words: readonly string[] = []): Array<[string, Command]> {
  return [[words.join(' ') || 'bench', command], ...command.commands.flatMap((sub) => commandsOf(sub, [...words, sub.name()]))];
}

const commands = new Map(commandsOf(buildProgram()));
const names = Object.keys(commandTable) as CommandName[];
const commandNamed = (name: string): Command => commands.get(name)!;
// commander's own
const builtin = new Set(['-V, --version', '-h, --help']);

describe("every command's flags", () => {
  it('the table names every command, and nothing else', () => {
    expect([...commands.keys()].sort()).toEqual([...names].sort());
  });

  it.each(names)('bench %s --help lists exactly the flags of the table, each described by its declaration', (name) => {
    const command = commandNamed(name);
    const table = commandOptions(name);
    expect(command.options.map((o) => o.flags).filter((flags) => !builtin.has(flags))).toEqual(table.map((o) => o.flags));
    const help = command.helpInformation({ error: false }).replace(/\s+/g, ' ');
    for (const option of table) {
      expect(help).toContain(`${option.flags} `);
      // the declaration's description, its default on this command and its range, nothing written here
      expect(command.options.find((o) => o.flags === option.flags)?.description).toBe(helpDescription(option));
    }
  });

  it('a flag is declared once, and every command that takes it takes that declaration', () => {
    const declared = new Map<string, string[]>();
    for (const [key, declaration] of Object.entries({ ...runOptionDeclarations, ...commandOptionDeclarations }) as Array<
      [string, AnyOptionDeclaration]
    >) {
      const flag = longFlag(declaration.flags);
      declared.set(flag, [...(declared.get(flag) ?? []), key]);
    }
    expect([...declared].filter(([, keys]) => keys.length > 1)).toEqual([]);
    // no key in both tables
    expect(Object.keys(commandOptionDeclarations).filter((key) => key in runOptionDeclarations)).toEqual([]);
    const taken = new Map<string, Set<AnyOptionDeclaration>>();
    for (const name of names)
      for (const option of commandOptions(name))
        taken.set(longFlag(option.flags), new Set([...(taken.get(longFlag(option.flags)) ?? []), option.declaration]));
    expect([...taken].filter(([, declarations]) => declarations.size > 1).map(([flag]) => flag)).toEqual([]);
    // the flags several commands share
    const shared = [...taken.keys()].filter(
      (flag) => names.filter((name) => commandOptions(name).some((o) => longFlag(o.flags) === flag)).length > 1,
    );
    expect(shared).toEqual(
      expect.arrayContaining([
        '--fail-if',
        '--out',
        '--noise',
        '--rounds',
        '--targets',
        '--engine',
        '--cpus',
        '--concurrency',
        '--duration',
      ]),
    );
    expect(shared).toEqual(expect.arrayContaining(['--rate', '--client-threads', '--debug', '--config', '--history', '--format', '--url']));
  });

  it('an override names only an option its command takes', () => {
    for (const name of names) {
      const overrides: object = ('overrides' in commandTable[name] ? commandTable[name].overrides : undefined) ?? {};
      const keys = commandOptions(name).map((o) => o.key);
      expect(
        Object.keys(overrides).filter((key) => !keys.includes(key)),
        name,
      ).toEqual([]);
    }
  });

  it("fills in a default where the table gives one, and leaves a run's option to the run", () => {
    for (const name of names) {
      const command = commandNamed(name);
      for (const option of commandOptions(name)) {
        const attribute = command.options.find((o) => o.flags === option.flags)!.attributeName();
        if (option.flags.startsWith('--no-')) continue;
        expect(command.getOptionValue(attribute), `${name} ${option.flags}`).toEqual(option.filled);
      }
    }
    // the overrides, as selfbench and the history page take them
    expect(commandNamed('selfbench').opts()).toMatchObject({ concurrency: [50], duration: 5, rounds: 3 });
    expect(commandNamed('noise').opts()).toMatchObject({ rounds: 6 });
    expect(commandNamed('history report').opts()).toMatchObject({ format: 'html', maxPValue: 0.001 });
    expect(commandNamed('compare').opts()).toEqual({ format: 'markdown' });
    expect(commandNamed('verify').opts()).toEqual({ jobs: 1 });
    expect(commandNamed('run').opts()).toEqual({ keepalive: true });
  });

  it('parses each flag by its declaration on every command that takes it', () => {
    const fresh = new Map(commandsOf(buildProgram()));
    const selfbench = fresh.get('selfbench')!;
    selfbench.parseOptions(['--client-threads', '1,2,2', '-c', '100,200', '--cpus', 'server=0,client=1', '--rate', '500']);
    expect(selfbench.opts()).toMatchObject({
      clientThreads: [1, 2],
      concurrency: [100, 200],
      cpus: { server: '0', client: '1' },
      rate: [500],
    });
    expect(() => fresh.get('selfbench')!.parseOptions(['--client-threads', '1,300'])).toThrow(
      /--client-threads "1,300" is not valid: expected from 1 to 256/,
    );
    expect(() => fresh.get('selfbench')!.parseOptions(['--client-threads', '1,,2'])).toThrow(/--client-threads "1,,2" is not valid/);
    expect(() => fresh.get('selfbench')!.parseOptions(['--rounds', '1001'])).toThrow(
      /--rounds "1001" is not valid: expected from 1 to 1000/,
    );
    const compare = fresh.get('compare')!;
    compare.parseOptions(['--noise', '2.5%']);
    expect(compare.opts()).toMatchObject({ noise: 2.5 });
    expect(() => fresh.get('compare')!.parseOptions(['--noise', '150%'])).toThrow(/--noise "150%" is not valid: expected from 0 to 100/);
    expect(() => fresh.get('verify')!.parseOptions(['--jobs', '65'])).toThrow(/--jobs "65" is not valid: expected from 1 to 64/);
    expect(() => fresh.get('history show')!.parseOptions(['--max-p-value', '2'])).toThrow(/--max-p-value "2" is not valid/);
  });
});
