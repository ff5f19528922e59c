#!/usr/bin/env node
// The legado-store command: each subcommand lives in commands/<name>.ts and registers itself here.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerBook } from './commands/book.js';
import { registerCache } from './commands/cache.js';
import { registerDemo } from './commands/demo.js';
import { registerDiff } from './commands/diff.js';
import { registerExport } from './commands/export.js';
import { registerImport } from './commands/import.js';
import { registerInfo } from './commands/info.js';
import { registerInit } from './commands/init.js';
import { registerList } from './commands/list.js';
import { registerMigrate } from './commands/migrate.js';
import { registerQuery } from './commands/query.js';
import { registerShelf } from './commands/shelf.js';
import { registerSources } from './commands/sources.js';
import { registerVerify } from './commands/verify.js';
import { registerWebDav } from './commands/webdav.js';
import { registerServe } from './commands/serve.js';
import { useNodeDrivers } from '../engine/drivers/index.js';
import { printError } from './errors.js';
import { NEWEST_VERSION, OLDEST_VERSION } from '../schema/index.js';
import { EXIT, UsageError, wantsJson } from './exit.js';

/** The package's version (package.json ships with the package, two folders above dist/src/cli). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command('legado-store')
    .description(`Create, check and fill Legado (阅读) reader databases (Room schemas ${OLDEST_VERSION} to ${NEWEST_VERSION}).`)
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.trimEnd() + '\n') });
  for (const register of [registerInit, registerInfo, registerVerify, registerDemo, registerMigrate, registerImport, registerExport, registerWebDav, registerShelf, registerList, registerQuery, registerDiff, registerSources, registerCache, registerBook, registerServe]) register(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  useNodeDrivers();
  const program = buildProgram();
  // No command: that is a usage error, not a request for help.
  if (argv.length === 0) {
    process.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  // `help <command>` for a command that does not exist.
  if (argv[0] === 'help' && argv.length > 1 && !program.commands.some((c) => c.name() === argv[1] || c.aliases().includes(argv[1]!))) {
    process.stderr.write(`legado-store: no command ${JSON.stringify(argv[1])}; the commands are ${program.commands.map((c) => c.name()).join(', ')}\n`);
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are successes; every other commander complaint is bad usage.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`legado-store: ${e.message}\n`);
      return EXIT.usage;
    }
    printError(e, wantsJson(argv));
    return EXIT.failure;
  }
}

// Output piped into a reader that stopped early (`| head`): stop quietly, as other tools do. The
// command is not cut short here: row output stops at the next write (rows-output.ts) and the
// command closes its store, so nothing is left beside it.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
  throw e;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
