// The legado-store command: each subcommand lives in commands/<name>.ts and registers itself here.
// Importing this runs nothing: bin.ts runs main() on the process's streams; tests run it in-process.
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
import { registerSearch } from './commands/search.js';
import { registerSources } from './commands/sources.js';
import { registerVerify } from './commands/verify.js';
import { registerWebDav } from './commands/webdav.js';
import { registerServe } from './commands/serve.js';
import { useNodeDrivers } from '../engine/drivers/index.js';
import { printError } from './errors.js';
import { NEWEST_VERSION, OLDEST_VERSION } from '../schema/index.js';
import { EXIT, UsageError, wantsJson } from './exit.js';
import type { CliIo, CliRun } from './io.js';

/** The package's version (package.json ships with the package, two folders above dist/src/cli). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(io: CliRun): Command {
  const program = new Command('legado-store')
    .description(`Create, check and fill Legado (阅读) reader databases (Room schemas ${OLDEST_VERSION} to ${NEWEST_VERSION}).`)
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(text.trimEnd() + '\n'),
    });
  for (const register of [
    registerInit,
    registerInfo,
    registerVerify,
    registerDemo,
    registerMigrate,
    registerImport,
    registerExport,
    registerWebDav,
    registerShelf,
    registerList,
    registerQuery,
    registerDiff,
    registerSources,
    registerSearch,
    registerCache,
    registerBook,
    registerServe,
  ])
    register(program, io);
  return program;
}

/**
 * Runs `legado-store <argv>` with `io`'s streams and environment; resolves to the exit code
 * (0 done, 1 failed, 2 bad usage; a command may set another, as `query` passes on its child's).
 * It never exits the process: bin.ts does that with the code.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const run: CliRun = { ...io, exitCode: undefined };
  useNodeDrivers();
  const program = buildProgram(run);
  // No command: that is a usage error, not a request for help.
  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  // `help <command>` for a command that does not exist.
  if (argv[0] === 'help' && argv.length > 1 && !program.commands.some((c) => c.name() === argv[1] || c.aliases().includes(argv[1]!))) {
    io.stderr.write(`legado-store: no command ${JSON.stringify(argv[1])}; the commands are ${program.commands.map((c) => c.name()).join(', ')}\n`);
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return run.exitCode ?? EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are successes; every other commander complaint is bad usage.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      io.stderr.write(`legado-store: ${e.message}\n`);
      return EXIT.usage;
    }
    printError(io, e, wantsJson(argv));
    return EXIT.failure;
  }
}
