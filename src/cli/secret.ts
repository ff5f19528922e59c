// Secrets for the command line: from an environment variable, or typed at a terminal prompt with
// nothing echoed. Never from argv (another user can read a process's arguments).
import { UsageError } from './exit.js';
import type { CliIo } from './io.js';

/** Where the backup password (for an encrypted servers.json) comes from, besides a prompt. */
export const BACKUP_PASSWORD_ENV = 'LEGADO_BACKUP_PASSWORD';

/** The secret in `envName`, else asked on the terminal; an error when there is neither. */
export async function secretFromEnvOrPrompt(io: CliIo, envName: string, question: string): Promise<string> {
  return (
    secretFromEnv(io, envName) ?? askSecret(io, question, `set ${envName}, or run on a terminal to be asked (a password is never taken from the command line)`)
  );
}

/** The secret in `envName`, when it is set and not empty. */
export function secretFromEnv(io: CliIo, envName: string): string | undefined {
  const fromEnv = io.env[envName];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
}

/** Asks on the terminal with nothing echoed; a usage error (saying `otherwise`) when stdin is not one. */
export function askSecret(io: CliIo, question: string, otherwise: string): Promise<string> {
  const stdin = io.stdin;
  if (!stdin.isTTY || !stdin.setRawMode) throw new UsageError(`no password: ${otherwise}`);
  return promptHidden(io, stdin as CliIo['stdin'] & { setRawMode(mode: boolean): unknown }, question);
}

function promptHidden(io: CliIo, stdin: CliIo['stdin'] & { setRawMode(mode: boolean): unknown }, question: string): Promise<string> {
  // Echo off before the question shows, so nothing typed after it is ever echoed.
  stdin.setRawMode(true);
  io.stderr.write(question);
  stdin.setEncoding('utf8');
  stdin.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003' || ch === '\u0004') {
          finish();
          reject(new UsageError('no password given'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
