// The public surface: the main entry's names (values and types) are counted from the built files
// (the module a user imports, its .d.ts read by the TypeScript compiler), the subpaths load
// through package.json "exports", WebDAV is a function rather than a patch of Store.prototype,
// the one importBackup takes each kind of input, and docs/migration.md's table of renamed names
// points at names that exist where it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { unzipSync } from 'fflate';
import { exportBackup, importBackup, openStore, Store, type AnyStore } from 'legado-store';
import { sampleBackup, writeBackupFolder, writeBackupZip } from './helpers/backup-fixtures.js';
import { openDb } from './helpers/engine.js';
import { importBackupBytes } from '../src/backup/import.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = 60;
const ENTRIES = {
  'legado-store': 'index',
  'legado-store/tools': 'tools/index',
  'legado-store/errors': 'error-classes',
  'legado-store/webdav': 'webdav/index',
  'legado-store/sources': 'sources/index',
  'legado-store/driver': 'engine/index',
} as const;

/** Every name a .d.ts exports, values and types, as the compiler resolves them (through `export *`). */
function declaredNames(dts: string): string[] {
  const program = ts.createProgram([dts], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(dts)!);
  assert.ok(symbol, `${dts} is a module`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort();
}

test(`the main entry exports at most ${LIMIT} names, values and types together`, async () => {
  const runtime = Object.keys(await import('legado-store')).sort();
  const all = declaredNames(join(root, 'dist/src/index.d.ts'));
  const types = all.filter((n) => !runtime.includes(n));
  // What runs is what the declarations say: no value without a declaration.
  assert.deepEqual(
    runtime.filter((n) => !all.includes(n)),
    [],
  );
  const list = `${all.length} names: values ${runtime.join(', ')}; types ${types.join(', ')}`;
  assert.ok(all.length <= LIMIT, `more than ${LIMIT}: ${list}`);
  console.log(list);
  // The groups docs/api.md names are all there.
  for (const n of ['openStore', 'inspectFile', 'Store', 'migrate', 'importBackup', 'exportBackup', 'LegadoStoreError', 'Row', 'SchemaVersion', 'Driver']) {
    assert.ok(all.includes(n), n);
  }
});

test("docs/api.md lists exactly the main entry's names, by group", () => {
  const doc = readFileSync(join(root, 'docs/api.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Public names'), doc.indexOf('\n\n', doc.indexOf('| group |')));
  const listed = [...table.matchAll(/^\| [^|]+ \|(.*)$/gm)].flatMap(([, cells]) => [...cells!.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
  assert.deepEqual([...listed].sort(), declaredNames(join(root, 'dist/src/index.d.ts')));
});

test('inspection, curation and formatting helpers are in legado-store/tools, not in the main entry', async () => {
  const main = await import('legado-store');
  const tools = (await import('legado-store/tools')) as Record<string, unknown>;
  for (const n of ['show', 'toJson', 'csvField', 'MASK', 'openSide', 'parseValue', 'diffStores', 'findDuplicateSources', 'readOnlyQuery', 'importBytesSync']) {
    assert.equal(typeof tools[n] === 'function' || typeof tools[n] === 'string', true, `tools has ${n}`);
    assert.equal(n in main, false, `main has no ${n}`);
  }
  // The helpers do their jobs: a CSV field with a quote is quoted and the quote doubled (RFC 4180).
  assert.equal((tools['csvField'] as (v: unknown) => string)('a "b", c'), '"a ""b"", c"');
});

test('every subpath loads through package.json "exports", with types beside it', async () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
  for (const [spec, file] of Object.entries(ENTRIES)) {
    const key = spec === 'legado-store' ? '.' : `./${spec.slice('legado-store/'.length)}`;
    assert.deepEqual(pkg.exports[key], { types: `./dist/src/${file}.d.ts`, default: `./dist/src/${file}.js` }, key);
    const names = Object.keys(await import(spec));
    assert.ok(names.length > 0, spec);
    assert.ok(declaredNames(join(root, `dist/src/${file}.d.ts`)).length >= names.length, spec);
  }
  // Every error class in one place, each a LegadoStoreError with its own name.
  const errors = (await import('legado-store/errors')) as Record<string, unknown>;
  const { LegadoStoreError } = await import('legado-store');
  for (const [name, value] of Object.entries(errors)) {
    assert.equal(typeof value, 'function', name);
    const proto = (value as { prototype: unknown }).prototype;
    assert.ok(name === 'JavaRegexError' || proto instanceof LegadoStoreError || value === LegadoStoreError, `${name} is a LegadoStoreError`);
  }
  assert.ok(Object.keys(errors).length >= 40, `${Object.keys(errors).length} classes`);
});

test('WebDAV is functions of a store; importing anything leaves Store.prototype alone', async () => {
  await import('legado-store/webdav');
  await import('legado-store/tools');
  assert.equal('webdav' in Store.prototype, false);
  const webdav = await import('legado-store/webdav');
  for (const f of [webdav.webdavSync, webdav.webdavBackup, webdav.webdavRestore, webdav.webdavProgress, webdav.webdavList]) assert.equal(typeof f, 'function');
  const dir = mkdtempSync(join(tmpdir(), 'api-dav-'));
  const store = openStore(join(dir, 's.db'), { schema: 75 });
  try {
    // The address is checked before any request, as store.webdav(...) did.
    assert.throws(
      () => webdav.webdavSync(store, { url: 'ftp://127.0.0.1/' }),
      (e: unknown) => e instanceof webdav.WebDavConfigError,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Rows per table, read with plain SQLite from the closed file. */
function countsOf(path: string, tables: readonly string[]): Record<string, number> {
  const db = openDb(path, { readonly: true });
  try {
    return Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`SELECT count(*) FROM \`${t}\``).pluck().get())]));
  } finally {
    db.close();
  }
}

test('one importBackup: a folder, a zip path, zip bytes, a list of files, a rule file, a database file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-import-'));
  try {
    const backup = sampleBackup();
    const folder = writeBackupFolder(join(dir, 'folder'), backup);
    const zip = await writeBackupZip(dir, join(dir, 'backup.zip'), backup);
    const rules = join(dir, 'sources.json');
    writeFileSync(rules, JSON.stringify([{ ...backup['bookSource.json']![0], bookSourceUrl: 'https://other.example', bookSourceName: 'Other' }]));
    const tables = ['books', 'book_sources', 'book_groups', 'replace_rules'] as const;
    // What the sample holds: 2 books, 1 source, 1 user group, 1 replace rule.
    const expected = { books: 2, book_sources: 1, book_groups: 1, replace_rules: 1 };
    const inputs: [string, Parameters<typeof importBackup>[1]][] = [
      ['folder', folder],
      ['zip path', zip],
      ['zip bytes', new Uint8Array(readFileSync(zip))],
      ['files', Object.keys(backup).map((name) => ({ name, bytes: readFileSync(join(folder, name)) }))],
    ];
    for (const [what, input] of inputs) {
      const path = join(dir, `${what}.db`);
      const store = openStore(path, { schema: 75, specialGroups: false });
      const r = await importBackup(store, input);
      store.close();
      assert.equal(r.totals.skipped, 0, what);
      assert.deepEqual(countsOf(path, tables), expected, what);
    }
    // The browser's importBackup (bytes only) takes the same list of files.
    const inMemory = join(dir, 'in-memory.db');
    const browserSide = openStore(inMemory, { schema: 75, specialGroups: false });
    await importBackupBytes(
      browserSide,
      Object.keys(backup).map((name) => ({ name, bytes: readFileSync(join(folder, name)) })),
    );
    browserSide.close();
    assert.deepEqual(countsOf(inMemory, tables), expected);
    // A rule file and a backup in one call: each as what it is, in one transaction.
    const mixed = join(dir, 'mixed.db');
    const both = openStore(mixed, { schema: 75, specialGroups: false });
    await importBackup(both, [zip, rules]);
    both.close();
    assert.deepEqual(countsOf(mixed, ['book_sources']), { book_sources: 2 });
    // A database file (told by its SQLite header) is imported row by row; its report says what it was.
    const into = join(dir, 'from-db.db');
    let store: AnyStore = openStore(into, { schema: 62, specialGroups: false });
    const r = await importBackup(store, join(dir, 'folder.db'));
    store.close();
    assert.equal(r.source?.version, 75);
    assert.deepEqual(countsOf(into, tables), expected);
    // ...on its own only, and never from memory, where it cannot be opened.
    store = openStore(join(dir, 'refused.db'), { schema: 75 });
    try {
      await assert.rejects(importBackup(store, [join(dir, 'folder.db'), zip]), { code: 'UNSUPPORTED_INPUT' });
      await assert.rejects(importBackup(store, readFileSync(join(dir, 'folder.db'))), { code: 'UNSUPPORTED_INPUT' });
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one exportBackup: to a path, or the zip bytes when no path is given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-export-'));
  const store = openStore(join(dir, 's.db'), { schema: 75 });
  try {
    await importBackup(store, writeBackupFolder(join(dir, 'in'), sampleBackup()));
    const bytes = await exportBackup(store);
    const result = await exportBackup(store, join(dir, 'out.zip'));
    assert.equal(result.format, 'zip');
    const names = (b: Uint8Array) => Object.keys(unzipSync(b)).sort();
    assert.deepEqual(names(bytes), names(readFileSync(join(dir, 'out.zip'))));
    const shelf = JSON.parse(new TextDecoder().decode(unzipSync(bytes)['bookshelf.json'])) as { bookUrl: string }[];
    assert.deepEqual(shelf.map((b) => b.bookUrl).sort(), ['/storage/emulated/0/Books/local.txt', 'https://books.example/1']);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/migration.md: every old name it lists is gone from the main entry, every new one is where it says', async () => {
  const doc = readFileSync(join(root, 'docs/migration.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Renamed and moved API names'));
  assert.ok(section.length > 100, 'the section is there');
  const main = declaredNames(join(root, 'dist/src/index.d.ts'));
  const cache = new Map<string, string[]>();
  const namesOf = (spec: string): string[] => {
    assert.ok(spec in ENTRIES, spec);
    const file = ENTRIES[spec as keyof typeof ENTRIES];
    if (!cache.has(spec)) cache.set(spec, declaredNames(join(root, `dist/src/${file}.d.ts`)));
    return cache.get(spec)!;
  };
  // Renamed: | `old` | `new` | note |, the new name in the main entry.
  const renamed = [...section.matchAll(/^\| `(\w+)` \| `(\w+)` \|/gm)];
  assert.ok(renamed.length >= 6, `${renamed.length} renamed`);
  for (const [, old, now] of renamed) {
    assert.equal(main.includes(old!), false, `${old} is still in the main entry`);
    assert.ok(main.includes(now!), `${old} → ${now}`);
  }
  // Moved: | area | `a`, `b`, ... | `legado-store/x`[, `legado-store/y`] |, each name in each.
  let moved = 0;
  for (const [, names, places] of section.matchAll(/^\| [^|`]+ \| ((?:`\w+`(?:, )?)+) \| ((?:`legado-store\/\w+`(?:, )?)+) \|$/gm)) {
    for (const name of names!.match(/\w+/g)!) {
      moved++;
      assert.equal(main.includes(name), false, `${name} is still in the main entry`);
      for (const spec of places!.match(/legado-store\/\w+/g)!) assert.ok(namesOf(spec).includes(name), `${name} in ${spec}`);
    }
  }
  assert.ok(moved >= 200, `${moved} moved names`);
});
