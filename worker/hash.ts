// `npm run worker:hash -- <name>`: reads a password on standard input (not an argument, which
// shell history and process lists keep) and prints the LEGADO_USERS entry `name:pbkdf2$...`.
import { hashPassword } from '../src/worker/auth.js';

const name = process.argv[2];
if (!name || name.includes(':') || name.includes(',')) {
  process.stderr.write('usage: npm run worker:hash -- <reader name without : or ,>  (password on standard input)\n');
  process.exit(2);
}
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const password = input.replace(/\r?\n$/, '');
if (password === '') {
  process.stderr.write('no password on standard input\n');
  process.exit(2);
}
process.stdout.write(`${name}:${await hashPassword(password)}\n`);
