// Write commands refuse a damaged store and leave nothing beside it: no -wal or -shm that was not
// there before, no books folder, nothing written. Damaged files of three kinds (a damaged page, a
// truncated file, a damaged page under a foreign -wal) and a bad header, against every CLI command
// that writes a store (a real WebDAV server on 127.0.0.1 for the webdav ones); the folder is listed
// with readdir afterwards, the rows read with raw SQL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore } from 'legado-store';
import { CorruptError } from 'legado-store/errors';
import { CLI } from './helpers/cli.js';
import { damagedStore } from './helpers/damaged.js';
import { PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';

/** The CLI in a child process, without blocking this process (which serves the WebDAV folder). */
function run(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, LEGADO_WEBDAV_PASSWORD: PASSWORD }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

let dav: DavServer;
let base: string;
let files: { damaged: string; intact: string; walDb: string; rules: string; txt: string };

before(async () => {
  dav = await startNodeDav();
  base = mkdtempSync(join(tmpdir(), 'legado-store-'));
  const { damaged, intact } = damagedStore(base, 'src');
  // A -wal holding a row, as copied from a phone beside its file (no -shm: no connection has it).
  const work = join(base, 'work');
  mkdirSync(work);
  copyFileSync(intact, join(work, 'w.db'));
  const s = openStore(join(work, 'w.db'));
  s.db.pragma('wal_autocheckpoint = 0');
  s.db.prepare("UPDATE book_sources SET bookSourceName = 'in the wal' WHERE bookSourceUrl = 'https://s1'").run();
  copyFileSync(join(work, 'w.db'), join(base, 'w.db'));
  copyFileSync(join(work, 'w.db-wal'), join(base, 'w.db-wal'));
  s.close();
  const rules = join(base, 'rules.json');
  writeFileSync(rules, JSON.stringify([{ bookSourceUrl: 'https://new.example' }]));
  const txt = join(base, 'book.txt');
  writeFileSync(txt, '第一章 开始\n正文一\n第二章 继续\n正文二\n');
  files = { damaged, intact, walDb: join(base, 'w.db'), rules, txt };
  // A backup and a progress file on the server, for restore and pull to have something to write.
  const good = join(base, 'good.db');
  assert.equal((await run(['import', good, rules])).code, 0);
  const g = openStore(good);
  g.books.save({ bookUrl: 'https://b.example/1', name: 'B', author: 'A', origin: 'https://new.example', durChapterIndex: 3, durChapterTime: Date.now() });
  g.close();
  const common = ['--url', dav.url, '--user', USER];
  for (const args of [
    ['webdav', 'backup', good, ...common],
    ['webdav', 'progress', good, '--push', ...common],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 0, r.stderr);
  }
});

after(async () => {
  await dav.close();
  rmSync(base, { recursive: true, force: true });
});

const DAMAGE: Record<string, (dir: string) => void> = {
  'a damaged page': (dir) => copyFileSync(files.damaged, join(dir, 's.db')),
  'a truncated file': (dir) => {
    copyFileSync(files.intact, join(dir, 's.db'));
    truncateSync(join(dir, 's.db'), Math.floor((statSync(files.intact).size * 0.4) / 4096) * 4096);
  },
  'a damaged page under a foreign -wal': (dir) => {
    copyFileSync(files.walDb, join(dir, 's.db'));
    copyFileSync(`${files.walDb}-wal`, join(dir, 's.db-wal'));
    overwrite(join(dir, 's.db'), 4096 * 60, Buffer.alloc(4096, 0xff));
  },
  // The page size field (bytes 16-17) not a power of two: SQLite calls it no database at all.
  'a bad header': (dir) => {
    copyFileSync(files.intact, join(dir, 's.db'));
    overwrite(join(dir, 's.db'), 16, Buffer.from([0x12, 0x34]));
  },
};

function overwrite(path: string, at: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

const COMMANDS: Record<string, (store: string) => string[]> = {
  import: (s) => ['import', s, files.rules],
  'sources dedupe --apply': (s) => ['sources', 'dedupe', s, '--apply'],
  'sources enable': (s) => ['sources', 'enable', s, '--url', 'https://s1'],
  'sources disable': (s) => ['sources', 'disable', s, '--url', 'https://s1'],
  migrate: (s) => ['migrate', s, '--to', '75'],
  'book add': (s) => ['book', 'add', s, files.txt],
  'cache purge': (s) => ['cache', 'purge', s],
  'webdav restore': (s) => ['webdav', 'restore', s, '--url', dav.url, '--user', USER],
  'webdav progress --pull': (s) => ['webdav', 'progress', s, '--pull', '--url', dav.url, '--user', USER],
  'webdav progress': (s) => ['webdav', 'progress', s, '--url', dav.url, '--user', USER],
};

for (const [damage, make] of Object.entries(DAMAGE)) {
  test(`write commands on ${damage}: refused (exit 1, CORRUPT or NOT_A_DATABASE), the folder exactly as before`, async () => {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const dir = join(base, `${damage}-${name}`.replace(/[^a-z0-9-]+/gi, '_'));
      mkdirSync(dir);
      make(dir);
      const before = readdirSync(dir).sort();
      const bytes = statSync(join(dir, 's.db')).size;
      const r = await run(args(join(dir, 's.db')));
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      const code = damage === 'a bad header' ? 'NOT_A_DATABASE' : 'CORRUPT';
      assert.match(r.stderr, new RegExp(`^legado-store: ${code}: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/s\\.db: `), name);
      assert.deepEqual(readdirSync(dir).sort(), before, `${name} left something beside the store`);
      assert.equal(statSync(join(dir, 's.db')).size, bytes, name);
    }
  });
}

test('a write the damage stops mid-way (the store opened, no -wal before): closing leaves no -wal or -shm, and none of the write', () => {
  const dir = join(base, 'api');
  mkdirSync(dir);
  copyFileSync(files.damaged, join(dir, 's.db'));
  const s = openStore(join(dir, 's.db'));
  // An update of every row reads the damaged page: SQLite stops it with CORRUPT, rolled back.
  assert.throws(
    () => s.transaction(() => s.db.prepare("UPDATE book_sources SET bookSourceGroup = 'touched'").run()),
    (e: unknown) => e instanceof Error,
  );
  assert.throws(
    () => s.tables.book_sources.list(),
    (e: unknown) => e instanceof CorruptError,
  );
  s.close();
  assert.deepEqual(readdirSync(dir), ['s.db']);
  // Byte for byte the file it was: nothing of the write reached it.
  assert.ok(readFileSync(join(dir, 's.db')).equals(readFileSync(files.damaged)));
});

test('through the API, a foreign -wal beside a damaged file is never merged into it: after the damage stops a read, both files are as they were', () => {
  const dir = join(base, 'api-wal');
  mkdirSync(dir);
  DAMAGE['a damaged page under a foreign -wal']!(dir);
  const file = readFileSync(join(dir, 's.db'));
  const wal = readFileSync(join(dir, 's.db-wal'));
  // The open checks the -wal's pages (sound), not the file's: the damage shows on the first full read.
  const s = openStore(join(dir, 's.db'));
  assert.throws(
    () => s.tables.book_sources.list(),
    (e: unknown) => e instanceof CorruptError,
  );
  s.close();
  assert.ok(readFileSync(join(dir, 's.db')).equals(file), 'the file as it was');
  assert.ok(readFileSync(join(dir, 's.db-wal')).equals(wal), 'the -wal as it was, beside it');
});
