// A chapter over 102,400 bytes that starts mid-block, followed by more chapters. The app's
// TextFile.analyze computes a chapter's start as the block's offset plus the bytes since the
// previous match (not since the block's start), so once a long chapter is split mid-block the
// later chapters of the block point too early and read the wrong bytes. The store keeps the app's
// chapter list (titles, indexes, pieces) and reads each chapter's real text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, addLocalBook, readLocalChapter } from 'legado-store';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';

const RULE_MULU =
  '^[ 　\\t]{0,4}(?:序章|楔子|正文(?!完|结)|终章|后记|尾声|番外|第\\s{0,4}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+?\\s{0,4}(?:章|节(?!课)|卷|集(?![合和])|部(?![分赛游])|篇(?!张))).{0,30}$';
const len = (s: string): number => Buffer.byteLength(s, 'utf8');

test("after a long chapter split mid-block: the app's titles and indexes, each chapter's real bytes", () => {
  const d = join(tempDir(), 's');
  mkdirSync(d);
  const store = openStore(join(d, 'a.db'));
  store.tables.txtTocRules.insert({ id: -2, name: '目录', rule: RULE_MULU, serialNumber: 1, enable: true });
  const line = (c: string) => `${c.repeat(99)}\n`; // 100 bytes
  const c1 = `第1章 甲\n${line('a').repeat(10)}`; // title 11 bytes, its line 12: 1,012 in all
  const c2 = `第2章 乙\n${line('b').repeat(1100)}`; // 110,012
  const c3 = `第3章 丙\n${line('c').repeat(20)}`; // 2,012
  const c4 = `第4章 丁\n${line('d').repeat(20)}`; // 2,012
  const text = c1 + c2 + c3 + c4; // 115,048 bytes: one block
  assert.equal(len(text), 115048);
  const r = addLocalBook(store, { fileName: 'long.txt', bytes: new TextEncoder().encode(text) });

  // The app, by hand. 第1章 at 0. 第2章: 1,012 bytes since 0, short; starts at 1,012. 第3章: the
  // 110,012 bytes since 第2章 minus 第2章's start in the block (1,012) = 109,000 > 102,400, so
  // 第2章 is emptied and the range [1,012 + 11 (its title), 0 + 110,012) is cut without a rule:
  // line feeds at 0, 100, 200... bytes into it, each piece ending at the first at or after 10,240
  // bytes on (every 10,300), ten pieces, the 5,989 bytes left (over 100) an eleventh. 第3章's start is then
  // 0 + 110,012 (the app's; really 111,024) and 第4章's 112,024 (really 113,036).
  const pieces = Array.from({ length: 11 }, (_, k) => `第2章 乙(${k + 1})`);
  const titles = ['第1章 甲', '第2章 乙', ...pieces, '第3章 丙', '第4章 丁'];
  assert.deepEqual(
    r.chapters.map((c) => [c.index, c.title]),
    titles.map((t, i) => [i, t]),
  );
  // The real bytes: each chapter from its heading to the next; the pieces cover 第2章's body.
  const h2 = len(c1);
  const h3 = h2 + len(c2);
  const h4 = h3 + len(c3);
  const cuts = [...Array.from({ length: 11 }, (_, k) => h2 + 11 + 10300 * k), h3];
  const raw = openDb(join(d, 'a.db'), { readonly: true });
  const rows = raw.prepare('SELECT `index`, title, start, `end` FROM chapters ORDER BY `index`').raw().all();
  raw.close();
  assert.deepEqual(rows, [
    [0, '第1章 甲', 0, h2],
    [1, '第2章 乙', h2, h2],
    ...pieces.map((t, k) => [k + 2, t, cuts[k], cuts[k + 1]]),
    [13, '第3章 丙', h3, h4],
    [14, '第4章 丁', h4, len(text)],
  ]);
  // Read back (TextFile.getContent, before replace rules): the text between the headings, the blank
  // after the title made two ideographic spaces.
  assert.equal(readLocalChapter(store, r.book.bookUrl, 13, { replace: false }).text, `　　${line('c').repeat(20)}`);
  assert.equal(readLocalChapter(store, r.book.bookUrl, 14, { replace: false }).text, `　　${line('d').repeat(20)}`);
  // The last piece ends with 第2章's last line (the app's ends 1,012 bytes short of it).
  assert.ok(readLocalChapter(store, r.book.bookUrl, 12, { replace: false }).text.endsWith(`${line('b').repeat(10)}`));
  const kept = readFileSync(r.book.bookUrl);
  assert.equal(kept.subarray(cuts[0], h3).toString('utf8'), `\n${line('b').repeat(1100)}`);
  store.close();
});
