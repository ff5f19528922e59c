// Exports never replace a file by surprise, leave nothing behind when a write fails, say why in
// a typed error, and can carry the original backup's non-table files through unchanged.
import assert from 'node:assert/strict';
import { cli } from './helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { FileExistsError } from '../src/errors.js';
import { WriteError } from '../src/backup/errors.js';
import { exportBackupBytes } from '../src/backup/export.js';
import { exportBackup } from '../src/node/backup-export.js';
import { importBackup } from '../src/node/backup-import.js';
import { bytesAccess } from '../src/backup/byte-source.js';
import { ZipReader } from '../src/backup/zip.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { sampleBackup, writeBackupFolder } from './helpers/backup-fixtures.js';
import { source } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';
import { zipBytes, zipNames, zipText } from './helpers/zip.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const MAIN = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));

const SETTINGS = {
  'config.xml': '<?xml version="1.0" encoding="utf-8"?>\n<map><string name="themeMode">1</string></map>\n',
  'readConfig.json': '[{"name":"夜间","textSize":20}]',
  'themeConfig.json': '[{"themeName":"dark"}]',
  'notes/unknown.bin': new Uint8Array([0, 1, 2, 255]),
};

async function sampleStore(dir: string): Promise<Store<62>> {
  const store = openStore(join(dir, 's.db')) as Store<62>;
  await importBackup(store, writeBackupFolder(join(dir, 'b'), sampleBackup()));
  return store;
}

const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.includes('.export-'));

test('an existing zip or folder is refused without overwrite; with it the zip is replaced through a temporary file', async () => {
  const dir = tempDir();
  const store = await sampleStore(dir);
  const out = join(dir, 'backup.zip');
  writeFileSync(out, 'precious');
  await assert.rejects(exportBackup(store, out), (e: unknown) => e instanceof FileExistsError && e.code === 'FILE_EXISTS' && e.message.includes(out));
  assert.equal(readFileSync(out, 'utf8'), 'precious');
  const r = await exportBackup(store, out, { overwrite: true });
  assert.ok(r.files.length > 10);
  assert.ok(zipNames(out).includes('bookSource.json'));
  assert.deepEqual(leftovers(dir), []);
  // A folder with files in it: refused, then replaced with overwrite.
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  writeFileSync(join(folder, 'mine.txt'), 'x');
  await assert.rejects(exportBackup(store, folder), /not an empty folder/);
  await exportBackup(store, folder, { overwrite: true });
  assert.ok(readdirSync(folder).includes('bookshelf.json') && !readdirSync(folder).includes('mine.txt'));
  // The CLI: refused without --force (exit 1, FILE_EXISTS), replaced with it.
  store.close();
  const cliOut = join(dir, 'cli.zip');
  writeFileSync(cliOut, 'keep me');
  let c = await cli('export', join(dir, 's.db'), cliOut);
  assert.equal(c.code, 1);
  assert.match(c.stderr, /FILE_EXISTS: .*cli\.zip: already exists/);
  assert.equal(readFileSync(cliOut, 'utf8'), 'keep me');
  c = await cli('export', join(dir, 's.db'), cliOut, '--force');
  assert.equal(c.code, 0, c.stderr);
  assert.ok(zipNames(cliOut).includes('bookshelf.json'));
});

test('write errors are typed (DISK_FULL, WRITE_FAILED with the errno) and leave no temporary file; what was there stays', async () => {
  const dir = tempDir();
  const store = await sampleStore(dir);
  // ENOSPC: the temporary file is a link to /dev/full, which takes no byte.
  const full = join(dir, 'full.zip');
  writeFileSync(full, 'old');
  symlinkSync('/dev/full', `${full}.${process.pid}.tmp`);
  await assert.rejects(
    exportBackup(store, full, { overwrite: true }),
    (e: unknown) => e instanceof WriteError && e.code === 'DISK_FULL' && e.errno === 'ENOSPC' && e.message.includes(full),
  );
  assert.equal(readFileSync(full, 'utf8'), 'old');
  assert.deepEqual(leftovers(dir), []);
  // EISDIR: a folder where the zip would go, even with overwrite.
  const isDir = join(dir, 'dir.zip');
  mkdirSync(isDir);
  await assert.rejects(
    exportBackup(store, isDir, { overwrite: true }),
    (e: unknown) => e instanceof WriteError && e.code === 'WRITE_FAILED' && e.errno === 'EISDIR',
  );
  // EACCES (or EROFS): a place no one may create files in, root included.
  await assert.rejects(
    exportBackup(store, '/sys/legado-export-test.zip'),
    (e: unknown) => e instanceof WriteError && ['EACCES', 'EROFS', 'EPERM'].includes(e.errno),
  );
  // EFBIG: a process limit on file size (64 KiB: the store's own files stay under it), through the CLI.
  store.tables.book_sources.insertMany(
    Array.from({ length: 1000 }, (_, i) =>
      source(`https://x${i}`, {
        bookSourceName: Array.from({ length: 20 }, () => Math.random().toString(36).slice(2)).join(''),
        customOrder: i,
        respondTime: 0,
      }),
    ),
  );
  store.close();
  const big = join(dir, 'big.zip');
  const r = spawnSync('bash', ['-c', `ulimit -f 64; exec "${process.execPath}" "${MAIN}" export "${join(dir, 's.db')}" "${big}"`], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^legado-store: WRITE_FAILED: .*big\.zip: cannot write: file too large .*\(EFBIG\)\n$/);
  assert.ok(!existsSync(big));
  assert.deepEqual(leftovers(dir), []);
});

test("--carry brings the original backup's files that hold no table through unchanged; tables come from the store", async () => {
  const dir = tempDir();
  const original = join(dir, 'original.zip');
  const files = { ...sampleBackup(), ...SETTINGS };
  writeFileSync(
    original,
    zipBytes(
      Object.entries(files).map(([name, data]) => ({ name, data: typeof data === 'string' || data instanceof Uint8Array ? data : JSON.stringify(data) })),
    ),
  );
  const store = openStore(join(dir, 's.db')) as Store<62>;
  await importBackup(store, original);
  store.tables.book_sources.update('https://source.example', { bookSourceName: 'Changed here' });
  const out = join(dir, 'out.zip');
  const r = await exportBackup(store, out, { carry: original });
  assert.deepEqual(r.carried.sort(), ['config.xml', 'readConfig.json', 'themeConfig.json', 'unknown.bin'].sort());
  for (const name of ['config.xml', 'readConfig.json', 'themeConfig.json']) assert.equal(zipText(out, name), SETTINGS[name as 'config.xml']);
  assert.match(zipText(out, 'bookSource.json'), /Changed here/);
  // From a folder, and in memory: the same files.
  const folder = writeBackupFolder(join(dir, 'orig-folder'), { ...sampleBackup(), 'config.xml': SETTINGS['config.xml'] });
  const r2 = await exportBackup(store, join(dir, 'out2.zip'), { carry: folder });
  assert.deepEqual(r2.carried, ['config.xml']);
  const bytes = await exportBackupBytes(store, { carry: readFileSync(original) });
  const names = new ZipReader(bytesAccess('mem', bytes)).entries.map((e) => e.name);
  assert.ok(names.includes('config.xml') && names.includes('themeConfig.json') && names.includes('bookshelf.json'));
  // The CLI says what it carried.
  store.close();
  const c = await cli('export', join(dir, 's.db'), join(dir, 'out3.zip'), '--carry', original);
  assert.equal(c.code, 0, c.stderr);
  assert.match(c.stdout, /carried unchanged: .*config\.xml/);
});
