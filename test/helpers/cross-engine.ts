// Files written through one engine, checked through another. The writer records, beside each
// file, the engine and runtime that wrote it and a fingerprint of every row as its engine read
// them; a checker on any engine must find the same structure (the store's check), an intact
// file, the same fingerprint, and must be able to open and write it as a store.
//
// As a script (`<runtime> dist/test/helpers/cross-engine.js <dir>`) it writes this runtime's
// files into <dir>; npm run test:runtimes does that on every runtime, then each runtime's
// test/runtimes/cross-runtime.test.js checks them all.
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspectFile, migrate, openStore, type Driver } from 'legado-store';
import { fillSample } from '../../src/sample/sample.js';
import { fingerprint } from './dump.js';
import { testDriver } from './engine.js';
import { fillV49 } from './v49-fixture.js';

export interface Written {
  readonly file: string;
  readonly engine: string;
  readonly runtime: string;
  readonly fingerprint: string;
}

export const runtime = (): string =>
  'Bun' in globalThis ? `Bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}` : `Node ${process.version}`;

const label = (driver: Driver): string => `${runtime().replace(/[^\w.]+/g, '_')}-${driver.name.replace(/\W+/g, '_')}`;

// Read-write connections that write nothing: on close they leave no -wal or -shm behind, as a
// read-only one would.
function record(file: string, driver: Driver): Written {
  const db = driver.open(file, { fileMustExist: true });
  try {
    const w: Written = { file, engine: driver.name, runtime: runtime(), fingerprint: fingerprint(db) };
    writeFileSync(`${file}.json`, JSON.stringify(w));
    return w;
  } finally {
    db.close();
  }
}

/** A schema-62 store with the sample profile, and a 49 file this engine upgraded to the current version. */
export function writeFiles(dir: string, driver: Driver): Written[] {
  const base = join(dir, label(driver));
  const sample = openStore(`${base}-62.db`, { driver, schema: 62 });
  fillSample(sample);
  sample.tables.books.update(sample.tables.books.list()[0]!.bookUrl, { group: -(2n ** 63n) | 3n });
  sample.close();
  const old = openStore(`${base}-49up.db`, { schema: 49, driver });
  fillV49(old);
  old.close();
  migrate(`${base}-49up.db`, { driver, to: 62 });
  return [record(`${base}-62.db`, driver), record(`${base}-49up.db`, driver)];
}

/** The written files in dir, with who wrote them. */
export function writtenIn(dir: string): Written[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.db.json'))
    .sort()
    .map((n) => ({ ...(JSON.parse(readFileSync(join(dir, n), 'utf8')) as Written), file: join(dir, n.slice(0, -'.json'.length)) }));
}

/** Throws unless `driver` reads the written file as its writer did and can use it as a store. */
export function checkFile(w: Written, driver: Driver, scratch: string): void {
  const where = `${w.file} (written by ${w.engine} on ${w.runtime}, read by ${driver.name} on ${runtime()})`;
  const report = inspectFile(w.file, { driver });
  if (!report.ok || !report.supported) throw new Error(`${where}: structure check failed: ${JSON.stringify(report.differences)}`);
  const db = driver.open(w.file, { fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${where}: integrity_check says ${String(integrity)}`);
    const seen = fingerprint(db);
    if (seen !== w.fingerprint) throw new Error(`${where}: rows differ from what the writer read`);
  } finally {
    db.close();
  }
  // Used as a store: on a copy, so the written file stays as its writer left it.
  const copy = join(scratch, `${w.file.split(/[\\/]/).pop()}.${driver.name.replace(/\W+/g, '_')}.copy.db`);
  copyFileSync(w.file, copy);
  const store = openStore(copy, { driver, create: false });
  try {
    const books = store.tables.books.count();
    store.tables.book_groups.upsert({ groupId: 4, groupName: 'cross', order: 9, show: true });
    if (books === 0 || store.tables.book_groups.get(4)?.groupName !== 'cross') throw new Error(`${where}: not usable as a store`);
  } finally {
    store.close();
  }
  if (!inspectFile(copy, { driver }).ok) throw new Error(`${where}: structure check failed after a write`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: cross-engine.js <dir>');
  for (const w of writeFiles(dir, testDriver)) console.log(`wrote ${w.file} with ${w.engine} on ${w.runtime}`);
}
