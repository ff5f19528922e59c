#!/usr/bin/env node
// The legado-store command: each subcommand lives in commands/<name>.ts and registers itself here.
import { Command, CommanderError } from 'commander';
import { LegadoStoreError } from '../errors.js';
import { registerDemo } from './commands/demo.js';
import { registerExport } from './commands/export.js';
import { registerImport } from './commands/import.js';
import { registerInfo } from './commands/info.js';
import { registerInit } from './commands/init.js';
import { registerMigrate } from './commands/migrate.js';
import { registerVerify } from './commands/verify.js';
import { EXIT, UsageError } from './exit.js';

export function buildProgram(): Command {
  const program = new Command('legado-store')
    .description('Create, check and fill Legado (阅读) reader databases (Room schema 62 and 49).')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.trimEnd() + '\n') });
  for (const register of [registerInit, registerInfo, registerVerify, registerDemo, registerMigrate, registerImport, registerExport]) register(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv as string[], { from: 'user' });
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
    const message = e instanceof LegadoStoreError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    process.stderr.write(`legado-store: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    return EXIT.failure;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
