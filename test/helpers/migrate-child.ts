// Child process of the kill test: `node migrate-child.js <file> <to> [<step>|after-commit|-] [<backup>]`.
// Prints "ready" just before the upgrade starts and "step <name>" as each step starts, so the
// parent can kill it at a moment inside a given step. With a step name it SIGKILLs itself as
// that step starts; with `after-commit` it kills itself once the upgrade has committed but
// before the connection is closed (so the commit is only in the -wal). At the end: "done".
import { openForWork } from '../../src/engine/connection.js';
import { testDriver } from './engine.js';
import { migrate } from '../../src/migrate/migrate.js';
import { planUpgrade } from '../../src/migrate/plan.js';
import { runUpgrade } from '../../src/migrate/upgrade.js';
import { schemas, type SchemaVersion } from '../../src/schema/index.js';

const [path, target, killAt, backup] = process.argv.slice(2);
if (!path || !target) throw new Error('usage: migrate-child <file> <to> [<step>|after-commit] [<backup>]');
const to = Number(target) as SchemaVersion;
const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

process.stdout.write('ready\n');
if (killAt === 'after-commit') {
  const db = openForWork(path);
  runUpgrade(db, planUpgrade(schemas[49], schemas[to]), { path, driver: testDriver });
  die();
}
migrate(path, {
  to,
  ...(backup && { backup }),
  onStep: (step) => (step === killAt ? die() : process.stdout.write(`step ${step}\n`)),
});
process.stdout.write('done\n');
