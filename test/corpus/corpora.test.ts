// Every real file in ../shared/corpora (beside the repository) imports without a crash, with the
// counts its README gives: duplicates counted (the later entry wins), 2.0 files converted, the
// empty-URL and float-id records skipped, the invalid sample rejected at its line and column.
// Also the real 2020 backup as a folder and as a zip, and its export keeping every field.
import '../helpers/engine.js'; // Node's engines, as the package's entry installs them
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { InvalidJsonError } from '../../src/backup/errors.js';
import { exportBackup } from '../../src/node/backup-export.js';
import { backupFileByName } from '../../src/backup/file-map.js';
import { importBackup, importFiles } from '../../src/node/backup-import.js';
import type { ImportResult } from '../../src/backup/report.js';
import { writeZip } from '../helpers/zip.js';
import { schemas } from '../../src/schema/index.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { corpora } from './shared.js';

/** The corpora sit beside the clone: <repo>/../shared/corpora; a failure when they do not. */
const CORPORA = corpora();

type Json = Record<string, unknown>;
interface Expect {
  readonly kind: string | null;
  readonly read: number;
  readonly stored: number;
  readonly duplicates?: number;
  readonly skipped?: Record<string, number>;
  readonly legacy?: number;
  readonly replaced?: number;
  /** Rows in the table afterwards (differs from stored when books are replaced). */
  readonly rows?: number;
}

/** Counts from the corpora README: entries, duplicate keys, 2.0 entries, blank keys. */
const FILES: Readonly<Record<string, Expect>> = {
  'legado-defaultData/bookSources.json': { kind: 'bookSource', read: 1, stored: 1 },
  'legado-defaultData/rssSources.json': { kind: 'rssSource', read: 4, stored: 4 },
  'legado-defaultData/txtTocRule.json': { kind: 'txtTocRule', read: 26, stored: 26 },
  'legado-defaultData/httpTTS.json': { kind: 'httpTTS', read: 2, stored: 2 },
  'legado-defaultData/dictRules.json': { kind: 'dictRule', read: 3, stored: 3 },
  'legado-defaultData/keyboardAssists.json': { kind: 'keyboardAssist', read: 32, stored: 32 },
  'legado-defaultData/directLinkUpload.json': { kind: null, read: 0, stored: 0 },
  'legado-defaultData/coverRule.json': { kind: null, read: 0, stored: 0 },
  'legado-defaultData/readConfig.json': { kind: null, read: 0, stored: 0 },
  'legado-defaultData/themeConfig.json': { kind: null, read: 0, stored: 0 },
  'booksources-yck-1263/5873_1d8cd8bda3bc9481e6a5f3c45a6c9c15.json': { kind: 'bookSource', read: 1263, stored: 1263 },
  'booksources-checked-shidahuilang/good.json': { kind: 'bookSource', read: 641, stored: 628, duplicates: 13 },
  'booksources-checked-shidahuilang/error.json': { kind: 'bookSource', read: 546, stored: 506, duplicates: 40 },
  'booksources-legacy-1537/input_1.json': { kind: 'bookSource', read: 1537, stored: 1537, legacy: 1537 },
  'booksources-yoval/bookSource.json': { kind: 'bookSource', read: 571, stored: 571 },
  'booksources-xiu2/shuyuan_2026-01-30_modern.json': { kind: 'bookSource', read: 26, stored: 26 },
  'booksources-xiu2/shuyuan_2021-03-12_mixed.json': { kind: 'bookSource', read: 111, stored: 106, duplicates: 5, legacy: 82 },
  'booksources-xiu2/shuyuan_20190922_1314_legacy.json': { kind: 'bookSource', read: 129, stored: 128, duplicates: 1, legacy: 129 },
  'booksources-daiaji/漫画.json': { kind: 'bookSource', read: 80, stored: 80 },
  'booksources-daiaji/失效.json': { kind: 'bookSource', read: 9, stored: 9 },
  'rss-sources/felmon_rssSources.json': { kind: 'rssSource', read: 389, stored: 389 },
  'rss-sources/daiaji_订阅.json': { kind: 'rssSource', read: 1, stored: 1 },
  'rss-sources/aoaostar_subscribe.json': { kind: 'rssSource', read: 1, stored: 1 },
  'replace-rules/tickmao_净化规则（167备用）.json': { kind: 'replaceRule', read: 167, stored: 167 },
  'replace-rules/tickmao_规则净化（20常用）.json': { kind: 'replaceRule', read: 20, stored: 20 },
  'replace-rules/tickmao_防盗反义词替换规则.json': { kind: 'replaceRule', read: 1, stored: 1 },
  'replace-rules/daiaji_净化.json': { kind: 'replaceRule', read: 17, stored: 17 },
  'replace-rules/daiaji_净化备份.json': { kind: 'replaceRule', read: 265, stored: 265 },
  'replace-rules/shidahuilang_jinghua.json': { kind: 'replaceRule', read: 26, stored: 26 },
  'replace-rules/aoaostar_wuyun.json': { kind: 'replaceRule', read: 20, stored: 20 },
  'txt-toc-rules/tickmao_目录规则.json': { kind: 'txtTocRule', read: 33, stored: 33 },
  'http-tts/tickmao_在线朗读tts.json': { kind: 'httpTTS', read: 84, stored: 84 },
  // One id is the float 1702154033416.5159: that record is skipped, not rounded.
  'http-tts/shidahuilang_tts.json': { kind: 'httpTTS', read: 70, stored: 69, skipped: { 'invalid key id': 1 } },
  'http-tts/aoaostar_qry.json': { kind: 'httpTTS', read: 80, stored: 80 },
  'http-tts/aoaostar_zhbb.json': { kind: 'httpTTS', read: 25, stored: 25 },
  'dict-rules/tickmao_字典（20）.json': { kind: 'dictRule', read: 20, stored: 20 },
  'dict-rules/daiaji_词典.json': { kind: 'dictRule', read: 6, stored: 6 },
  'backup-tzc110112-read/bookshelf.json': { kind: 'book', read: 13, stored: 13 },
  'backup-tzc110112-read/txtTocRule.json': { kind: 'txtTocRule', read: 18, stored: 18 },
  // The app's book-list export shares the name bookshelf.json (name, author, intro; no bookUrl):
  // recognised as kind bookList and not imported, as adding needs a search of sources.
  'booklist-export-caicai2480/bookshelf.json': { kind: null, read: 0, stored: 0 },
  'booksources-legado-export-2005/exportBookSource5.json': { kind: 'bookSource', read: 2005, stored: 2004, skipped: { 'blank key bookSourceUrl': 1 } },
  'booksources-legacy-stubs-3742/Rules202028135100_fail.json': { kind: 'bookSource', read: 3742, stored: 3742, legacy: 3742 },
  // 1693 rows repeat a bookUrl; 55 books share (name, author) with a later one under another bookUrl.
  'bookshelf-guibiaoguo-2979/bookshelf.json': { kind: 'book', read: 2979, stored: 1286, duplicates: 1693, replaced: 55, rows: 1231 },
  'backup-ChouE-legado3-2020/bookSource.json': { kind: 'bookSource', read: 87, stored: 87 },
  'backup-ChouE-legado3-2020/bookshelf.json': { kind: 'book', read: 1, stored: 1 },
  'backup-ChouE-legado3-2020/replaceRule.json': { kind: 'replaceRule', read: 55, stored: 55 },
  'backup-ChouE-legado3-2020/rssSource.json': { kind: 'rssSource', read: 59, stored: 59 },
  'backup-ChouE-legado3-2020/txtTocRule.json': { kind: 'txtTocRule', read: 18, stored: 18 },
  'backup-ChouE-legado3-2020/readConfig.json': { kind: null, read: 0, stored: 0 },
  'backup-ChouE-legado3-2020/config.xml': { kind: null, read: 0, stored: 0 },
  'backup-ChouE-legado3-2020/bookGroup.json': { kind: 'bookGroup', read: 0, stored: 0 },
  'backup-ChouE-legado3-2020/bookmark.json': { kind: 'bookmark', read: 0, stored: 0 },
  'backup-ChouE-legado3-2020/rssStar.json': { kind: 'rssStar', read: 0, stored: 0 },
  'backup-ChouE-yuedu2-2020/myBookSource.json': { kind: 'bookSource', read: 1517, stored: 1517, legacy: 1517 },
  // 3 of 51 2.0 replace rules have an empty regex: not rules (the app refuses them too).
  'backup-ChouE-yuedu2-2020/myBookReplaceRule.json': { kind: 'replaceRule', read: 51, stored: 48, legacy: 48, skipped: { 'no pattern': 3 } },
  // 16 2.0 TOC rules without ids: each gets its own time-based id.
  'backup-ChouE-yuedu2-2020/myTxtChapterRule.json': { kind: 'txtTocRule', read: 16, stored: 16 },
  'backup-ChouE-yuedu2-2020/config.xml': { kind: null, read: 0, stored: 0 },
};
const INVALID = 'invalid-json/xiu2_shuyuan_2020-07-21_trailing_comma.json';

const work = mkdtempSync(join(tmpdir(), 'legado-corpus-'));
after(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const newStore = (): Store<62> => openStore(join(work, `${n++}.db`), { schema: 62 });

function allFiles(): string[] {
  const out: string[] = [];
  for (const d of readdirSync(CORPORA, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name === '_meta') continue;
    for (const f of readdirSync(join(CORPORA, d.name))) out.push(`${d.name}/${f}`);
  }
  return out.sort();
}

function checkCounts(name: string, r: ImportResult, store: Store<62>): void {
  const e = FILES[name]!;
  const file = r.files.find((f) => f.file.endsWith(name))!;
  assert.ok(file, `${name} is reported`);
  if (e.kind === null) {
    assert.equal(file.status, 'not-imported', name);
    if (name.startsWith('booklist-export')) assert.deepEqual([file.kind, file.read], ['bookList', 13], name);
    return;
  }
  assert.equal(file.kind, e.kind, name);
  // The README's duplicates are repeated keys: true duplicates, and conflicts (same key, other content).
  const conflicts = r.conflicts.filter((c) => c.kept.startsWith(`${file.file} [`)).length;
  assert.deepEqual([file.read, file.stored, file.duplicates + conflicts], [e.read, e.stored, e.duplicates ?? 0], `${name}: read, stored, duplicates`);
  const k = r.kinds[e.kind];
  if (e.read === 0) return;
  assert.deepEqual(k!.skipReasons, e.skipped ?? {}, `${name}: skipped`);
  assert.equal(k!.legacyConverted, e.legacy ?? 0, `${name}: converted from 2.0`);
  assert.equal(k!.replaced, e.replaced ?? 0, `${name}: replaced`);
  assert.equal(store.table(k!.table).count(), e.rows ?? e.stored, `${name}: rows`);
  const skipped = r.skipped.filter((s) => s.file.endsWith(name));
  assert.equal(
    skipped.length,
    Object.values(e.skipped ?? {}).reduce((a, b) => a + b, 0),
    `${name}: skipped records listed`,
  );
  for (const s of skipped) assert.ok(Number.isInteger(s.index) && s.index >= 0 && s.index < e.read && s.reason.length > 0);
}

test('corpora', async (t) => {
  const listed = new Set([...Object.keys(FILES), INVALID]);
  const found = allFiles();
  assert.deepEqual(
    found.filter((f) => !listed.has(f)),
    [],
    'every corpus file has expectations here',
  );

  await t.test('every file imports on its own with the README counts', async () => {
    for (const name of found) {
      if (name === INVALID) continue;
      const store = newStore();
      try {
        checkCounts(name, await importFiles(store, [join(CORPORA, name)]), store);
      } finally {
        store.close();
      }
    }
  });

  await t.test('the invalid sample is rejected at line 2760, column 5, and stores nothing', async () => {
    const store = newStore();
    await assert.rejects(importFiles(store, [join(CORPORA, INVALID)]), (e: unknown) => {
      assert.ok(e instanceof InvalidJsonError);
      assert.deepEqual([e.line, e.column], [2760, 5]);
      assert.ok(e.message.includes('xiu2_shuyuan_2020-07-21_trailing_comma.json:2760:5'));
      return true;
    });
    assert.equal(store.tables.book_sources.count(), 0);
    store.close();
  });

  await t.test('2.0 sources are converted with the reference mapping', async () => {
    const store = newStore();
    await importFiles(store, [join(CORPORA, 'booksources-xiu2/shuyuan_2021-03-12_mixed.json')]);
    const raw = JSON.parse(readFileSync(join(CORPORA, 'booksources-xiu2/shuyuan_2021-03-12_mixed.json'), 'utf8')) as Json[];
    const urls = new Map<string, number>();
    raw.forEach((s, i) => urls.set(String(s.bookSourceUrl), i));
    const legacy = raw.find((s, i) => 'ruleSearchUrl' in s && urls.get(String(s.bookSourceUrl)) === i && typeof s.ruleSearchName === 'string')!;
    const row = store.tables.book_sources.get(String(legacy.bookSourceUrl))!;
    assert.equal(row.enabled, legacy.enable ?? true);
    assert.equal(row.customOrder, legacy.serialNumber);
    assert.ok(row.searchUrl === null || !row.searchUrl.includes('searchKey'));
    const search = JSON.parse(row.ruleSearch!) as Json;
    assert.ok(typeof search.name === 'string' && search.name.length > 0);
    assert.ok(JSON.parse(row.ruleToc!) as Json);
    store.close();
  });

  await t.test('the real 2020 backup: folder and zip give the same rows; its export keeps every field with a column', async () => {
    const dir = join(CORPORA, 'backup-ChouE-legado3-2020');
    const a = newStore();
    const ra = await importBackup(a, dir);
    for (const name of Object.keys(FILES).filter((f) => f.startsWith('backup-ChouE-legado3-2020/'))) checkCounts(name, ra, a);
    const zip = join(work, 'backup2020.zip');
    await writeZip(
      zip,
      readdirSync(dir).map((f) => ({ name: f, path: join(dir, f) })),
    );
    const b = newStore();
    await importBackup(b, zip);
    for (const t2 of schemas[62].tables) assert.deepEqual(b.table(t2.name).list(), a.table(t2.name).list(), t2.name);

    const out = join(work, 'export2020');
    await exportBackup(a, out);
    for (const f of readdirSync(dir).filter((x) => backupFileByName(x) && readFileSync(join(dir, x)).length > 0)) {
      const spec = backupFileByName(f)!;
      const table = schemas[62].table(spec.table)!;
      const input = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json[];
      const written = JSON.parse(readFileSync(join(out, spec.file), 'utf8')) as Json[];
      for (const rec of input) {
        const w = written.find((x) => table.primaryKey.every((c) => x[c.field] === rec[c.field]));
        assert.ok(w, `${f}: ${JSON.stringify(table.primaryKey.map((c) => rec[c.field]))} written`);
        for (const [k, v] of Object.entries(rec)) {
          if (!table.column(k) || v === null) continue;
          if (spec.table === 'books' && k === 'type') continue; // old code 0 → bitmask, checked below
          assert.deepEqual(w[k], v, `${f}.${k}`);
        }
      }
    }
    const book = (JSON.parse(readFileSync(join(out, 'bookshelf.json'), 'utf8')) as Json[])[0]!;
    assert.equal(book.type, 264, 'a local text book of 2020 (type 0) is text|local');
    assert.deepEqual(book.readConfig, { useReplaceRule: true }, 'top-level useReplaceRule moved into readConfig');
    a.close();
    b.close();
  });

  await t.test('the 2.0 backup folder imports its sources, replace rules and TOC rules', async () => {
    const store = newStore();
    const r = await importBackup(store, join(CORPORA, 'backup-ChouE-yuedu2-2020'));
    for (const name of Object.keys(FILES).filter((f) => f.startsWith('backup-ChouE-yuedu2-2020/'))) checkCounts(name, r, store);
    store.close();
  });
});
