// Exactness: a round trip (import, export, import again) never changes a stored value, over
// generated records; integers a field cannot hold exactly, strings UTF-8 cannot store and
// records nested past any sense are refused with a reason instead of stored changed; errors
// never quote what servers.json holds.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { encryptBackupText } from '../src/backup/aes.js';
import { InvalidJsonError } from '../src/backup/errors.js';
import { exportBackupBytes } from '../src/backup/export.js';
import { BACKUP_FILES } from '../src/backup/file-map.js';
import { importBackupBytes } from '../src/backup/import.js';
import { importBackup, importFiles } from '../src/node/backup-import.js';
import { bytesAccess } from '../src/backup/byte-source.js';
import { ZipReader } from '../src/backup/zip.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { writeBackupFolder, writeJson, type Json } from './helpers/backup-fixtures.js';
import { tempDir } from './helpers/files.js';
import { zipBytes } from './helpers/zip.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x297a2d39) >>> 0) / 2 ** 32;
}

const PIECES = ['a', '书', '📚', '"', '\\', '\u2028', '\u2029', '\uFEFF', '<', '&', '\n', ' ', '\u0000', 'é', '{"x":1}'];

/** Generated backup files: every value kind the tables hold, at its edges. */
function generate(seed: number): Record<string, Json[]> {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const text = () => Array.from({ length: Math.floor(r() * 6) }, () => pick(PIECES)).join('');
  // A Kotlin Long's range the store keeps (docs/integer-ranges.md), and an Int's.
  const safe = () => pick([0, 1, -1, 2 ** 31 - 1, -(2 ** 31), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Math.floor(r() * 2 ** 53)]);
  const int = () => pick([0, 1, -1, 2 ** 31 - 1, -(2 ** 31), Math.floor(r() * 2 ** 31)]);
  const mask = () => pick(['0', '1', '-9223372036854775808', '9223372036854775807', '9007199254740993', '4611686018427387904', String(2 ** 40)]);
  const bool = () => r() < 0.5;
  const n = 5 + Math.floor(r() * 10);
  const books: Json[] = Array.from({ length: n }, (_, i) => ({
    bookUrl: `https://b/${seed}/${i}${text()}`,
    name: `N${i}${text()}`,
    author: text(),
    origin: pick(['loc_book', 'https://src', 'webDav::x']),
    type: i === 0 ? 8 : pick([0, 8, 16, 32, 64, 128, 264, 1032, 1 << 30]),
    group: `@@${mask()}@@`,
    durChapterTime: safe(),
    durChapterIndex: Math.floor(r() * 1000),
    canUpdate: bool(),
    order: int(),
    intro: text(),
    readConfig: { reverseToc: bool(), pageAnim: Math.floor(r() * 4), note: text() },
  }));
  const sources: Json[] = Array.from({ length: n }, (_, i) => ({
    bookSourceUrl: `https://s/${i}${text()}`,
    bookSourceName: text(),
    bookSourceGroup: text(),
    customOrder: pick([0, -(2 ** 31), 2 ** 31 - 1, i]),
    weight: Math.floor(r() * 100),
    lastUpdateTime: safe(),
    respondTime: safe(),
    enabled: bool(),
    ruleSearch: { bookList: text(), name: text(), nested: { deep: [text(), 1, true], none: null } },
  }));
  const rules: Json[] = Array.from({ length: n }, (_, i) => ({
    id: i === 0 ? Number.MAX_SAFE_INTEGER : i + 1,
    name: text(),
    pattern: `p${text()}`,
    replacement: text(),
    isRegex: bool(),
    order: int(),
    scope: text(),
  }));
  const groups: Json[] = [
    { groupId: '@@-9223372036854775808@@', groupName: `g${text()}`, order: 1, show: bool() },
    { groupId: '@@4611686018427387904@@', groupName: 'h', order: int(), show: true },
  ];
  return { 'bookshelf.json': books, 'bookSource.json': sources, 'replaceRule.json': rules, 'bookGroup.json': groups };
}

/** JSON with 64-bit integers written as they are (`"@@123@@"` placeholders become bare numbers). */
const toBytes = (v: Json[]) => new TextEncoder().encode(JSON.stringify(v).replace(/"@@(-?\d+)@@"/g, '$1'));

const TABLES = BACKUP_FILES.map((f) => f.table);
const dump = (s: Store<62>) => Object.fromEntries(TABLES.map((t) => [t, s.table(t).list()]));
const files = (zip: Uint8Array) => {
  const z = new ZipReader(bytesAccess('x', zip));
  return Object.fromEntries(z.entries.map((e) => [e.name, Buffer.concat([...z.source(e).chunks()].map((c) => c.slice())).toString('utf8')]));
};

test('round trips over generated records: import, export, import again changes no stored value; a second export is byte-identical', async () => {
  for (let seed = 1; seed <= 25; seed++) {
    const backup = generate(seed);
    const zip = zipBytes(Object.entries(backup).map(([name, v]) => ({ name, data: toBytes(v) })));
    const a = openStore(':memory:') as Store<62>;
    const ra = await importBackupBytes(a, zip, { now: 1 });
    assert.deepEqual(
      ra.skipped.filter((s) => !s.category.startsWith('unstorable')),
      [],
      `seed ${seed}`,
    );
    const outA = await exportBackupBytes(a);
    const b = openStore(':memory:') as Store<62>;
    const rb = await importBackupBytes(b, outA, { now: 2 });
    assert.equal(rb.totals.skipped, 0, `seed ${seed}`);
    assert.deepEqual(dump(b), dump(a), `seed ${seed}: rows after a round trip`);
    assert.deepEqual(files(await exportBackupBytes(b)), files(outA), `seed ${seed}: the export of the re-import`);
    const group = a.tables.book_groups.get(-(2n ** 63n));
    assert.ok(group, `seed ${seed}: the 64th group kept exactly`);
    a.close();
    b.close();
  }
});

test('integers a field cannot hold are refused with a reason, never rounded; 64-bit masks and Longs stay exact', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  const text =
    '[{"bookUrl":"u1","name":"a","author":"x","group":9007199254740993,"durChapterTime":1},' +
    '{"bookUrl":"u2","name":"b","author":"x","group":-9223372036854775808},' +
    '{"bookUrl":"u3","name":"c","author":"x","durChapterTime":9007199254740993},' +
    '{"bookUrl":"u4","name":"d","author":"x","durChapterTime":"-9223372036854775808"},' +
    '{"bookUrl":"u5","name":"e","author":"x","order":1e20}]';
  const r = await importBackupBytes(store, new TextEncoder().encode(text), { kind: 'book' });
  assert.equal(store.tables.books.get('u1')!.group, 9007199254740993n);
  assert.equal(store.tables.books.get('u2')!.group, -(2n ** 63n));
  // The app's Long holds 64 bits: read back as the bigints they are.
  assert.equal(store.tables.books.get('u3')!.durChapterTime as unknown, 9007199254740993n);
  assert.equal(store.tables.books.get('u4')!.durChapterTime as unknown, -(2n ** 63n));
  // An Int cannot hold 1e20.
  assert.deepEqual(
    r.skipped.map((s) => [s.index, s.category]),
    [[4, 'unstorable order']],
  );
  assert.match(r.skipped[0]!.reason, /100000000000000000000 is beyond ±2\^53/);
  await assert.rejects(importBackupBytes(store, new TextEncoder().encode(text), { kind: 'book', strict: true }), /IMPORT_REJECTED|strict import rejected/);
  store.close();
});

test('lone surrogates are refused, not stored as replacement characters; escaped in rule objects they are kept', async () => {
  const store = openStore(':memory:') as Store<62>;
  const text = '[{"bookSourceUrl":"a","bookSourceName":"x\\ud800y"},{"bookSourceUrl":"b","bookSourceName":"ok 📚","ruleSearch":{"name":"\\udc00"}}]';
  const r = await importBackupBytes(store, new TextEncoder().encode(text));
  assert.deepEqual(
    r.skipped.map((s) => [s.index, s.category]),
    [[0, 'unstorable bookSourceName']],
  );
  assert.equal(r.skipped[0]!.reason, 'bookSourceName: holds a lone UTF-16 surrogate at index 1, which UTF-8 text cannot store');
  assert.equal(store.tables.book_sources.get('b')!.bookSourceName, 'ok 📚');
  assert.equal(JSON.parse(store.tables.book_sources.get('b')!.ruleSearch!).name, '\udc00');
  store.close();
});

test('a record nested 5,000 (or 100,000) levels deep is skipped with a reason, not a stack overflow', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  for (const depth of [5000, 100_000]) {
    const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const text of [`[{"bookSourceUrl":"x","ruleSearch":${deep}},{"bookSourceUrl":"ok"}]`, `{"bookSourceUrl":"x","bookSourceName":${deep}}`]) {
      const file = join(dir, `deep${depth}.json`);
      writeFileSync(file, text);
      const r = await importFiles(store, [file]).catch((e: unknown) => e);
      assert.ok(!(r instanceof Error), `${depth}: ${String(r)}`);
      const result = r as Awaited<ReturnType<typeof importFiles>>;
      assert.equal(result.skipped[0]!.category, 'too deeply nested', String(depth));
    }
  }
  assert.ok(store.tables.book_sources.get('ok'));
  assert.equal(store.tables.book_sources.get('x'), undefined);
  store.close();
});

test('nesting is counted the same whether records are read together or one by one: 256 levels stored, 257 refused', async () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  // The record object is a level: ruleSearch nested 255 deep makes 256.
  const records = [`{"bookSourceUrl":"ok","ruleSearch":${deep(255)}}`, `{"bookSourceUrl":"no","ruleSearch":${deep(256)}}`];
  // Small records share a chunk (parsed together); behind 70,000 bytes of padding they cross one.
  for (const pad of ['', `{"bookSourceUrl":"pad","bookSourceComment":"${'x'.repeat(70_000)}"},`]) {
    const store = openStore(':memory:') as Store<62>;
    const r = await importBackupBytes(store, new TextEncoder().encode(`[${pad}${records.join(',')}]`));
    assert.deepEqual(
      r.skipped.map((x) => [x.index, x.category]),
      [[pad ? 2 : 1, 'too deeply nested']],
    );
    assert.ok(store.tables.book_sources.get('ok'));
    store.close();
  }
});

test('errors and reasons never quote servers.json: invalid JSON, skipped records', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  const secret = 'hunter2-webdav-password';
  const bad = `[{"id":1,"name":"dav","type":"WEBDAV","config":"{\\"password\\":\\"${secret}\\"}" "sortNumber":0}]`;
  for (const content of [bad, encryptBackupText(bad)]) {
    const folder = writeBackupFolder(join(dir, `b${content.length}`), { 'servers.json': content as unknown as Json[] });
    const e = await importBackup(store, folder, { strict: true }).catch((x: unknown) => x);
    assert.ok(e instanceof InvalidJsonError, String(e));
    assert.ok(!e.message.includes(secret) && !e.message.includes('hunter') && !e.detail.includes('sortNumber'), e.message);
    const lenient = await importBackup(store, folder);
    assert.ok(!JSON.stringify(lenient).includes(secret));
  }
  const skipped = await importFiles(store, [writeJson(join(dir, 'servers.json'), [{ id: '12.5x', name: secret }])], { kind: 'server' });
  assert.equal(skipped.totals.skipped, 1);
  assert.ok(!JSON.stringify(skipped).includes(secret) && !JSON.stringify(skipped).includes('12.5x'), JSON.stringify(skipped.skipped));
  store.close();
});
