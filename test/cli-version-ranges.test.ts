// The CLI's version ranges follow the schema chain: its help names the oldest and the newest
// version of the app's main line, read here from the Room facts the app exported (fixtures),
// not from the store's own constants.
import { processIo, type CliRun } from '../src/cli/io.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerImport } from '../src/cli/commands/import.js';
import { registerInit } from '../src/cli/commands/init.js';
import { registerMigrate } from '../src/cli/commands/migrate.js';

const facts = JSON.parse(readFileSync(new URL('../../test/fixtures/room-facts/legado.json', import.meta.url), 'utf8')) as { versions: Record<string, unknown> };
const versions = Object.keys(facts.versions).map(Number);
const oldest = Math.min(...versions);
const newest = Math.max(...versions);

/** The description of a command's option, and its default, as the help prints them. */
const option = (register: (p: Command, io: CliRun) => void, name: string, flag: string): string => {
  const program = new Command();
  register(program, { ...processIo(), exitCode: undefined });
  const o = program.commands.find((c) => c.name() === name)!.options.find((o) => o.long === flag)!;
  return `${o.description}${o.defaultValue === undefined ? '' : ` [${String(o.defaultValue)}]`}`;
};

test("the CLI's help gives the main line's versions, oldest to newest", () => {
  assert.equal(option(registerInit, 'init', '--schema'), `schema version, ${oldest} to ${newest} (the app's main line) [${newest}]`);
  assert.equal(option(registerImport, 'import', '--schema'), `schema version for a new store, ${oldest} to ${newest} (default ${newest})`);
  assert.match(
    option(registerMigrate, 'migrate', '--to'),
    new RegExp(`^target schema version, above the file's, up to ${newest} \\(default ${newest}, the newest`),
  );
});
