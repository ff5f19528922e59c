// A TXT added to a store without TOC rules: the app's TextFile.getTocRules inserts its default
// rules (defaultData/txtTocRule.json) when the txtTocRules table is empty and splits with the
// enabled ones; the store does the same, in the same transaction as the book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { addLocalBook, openStore } from 'legado-store';

const dir = tempDir();

// The app's defaults (txtTocRule.json at 6eefa71ebc): id, serialNumber, enable, name, in order.
const APP_DEFAULTS: [number, number, number, string][] = [
  [-1, 0, 1, '目录(去空白)'],
  [-2, 1, 1, '目录'],
  [-3, 2, 0, '目录(匹配简介)'],
  [-4, 3, 0, '目录(古典、轻小说备用)'],
  [-5, 4, 0, '数字(纯数字标题)'],
  [-6, 5, 0, '大写数字(纯数字标题)'],
  [-7, 6, 0, '数字混合(纯数字标题)'],
  [-8, 7, 1, '数字 分隔符 标题名称'],
  [-9, 8, 1, '大写数字 分隔符 标题名称'],
  [-10, 9, 0, '数字混合 分隔符 标题名称'],
  [-11, 10, 1, '正文 标题/序号'],
  [-12, 11, 1, 'Chapter/Section/Part/Episode 序号 标题'],
  [-13, 12, 0, 'Chapter(去简介)'],
  [-14, 13, 1, '特殊符号 序号 标题'],
  [-15, 14, 0, '特殊符号 标题(成对)'],
  [-16, 15, 1, '特殊符号 标题(单个)'],
  [-17, 16, 1, '章/卷 序号 标题'],
  [-18, 17, 0, '顶格标题'],
  [-19, 18, 0, '双标题(前向)'],
  [-20, 19, 0, '双标题(后向)'],
  [-21, 20, 1, '书名 括号 序号'],
  [-22, 21, 1, '书名 序号'],
  [-23, 22, 0, '特定字符 标题 特定符号'],
  [-24, 23, 1, '字数分割 分节阅读'],
  [-25, 24, 0, '通用规则'],
  [-100, 99, 0, '默认分章规则'],
];
// The app's 目录 rule (id -2), the one that scores best on 第X章 headings at line starts.
const RULE_MULU =
  '^[ 　\\t]{0,4}(?:序章|楔子|正文(?!完|结)|终章|后记|尾声|番外|第\\s{0,4}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+?\\s{0,4}(?:章|节(?!课)|卷|集(?![合和])|部(?![分赛游])|篇(?!张))).{0,30}$';

test('a fresh store: the app default TOC rules are inserted and split a TXT with 第一章 headings into its chapters', async () => {
  const db = join(dir, 'fresh.db');
  assert.equal((await cli('init', db)).code, 0);
  const src = join(dir, 'in');
  mkdirSync(src);
  // Headings more than 1,000 characters apart, so every one scores (TextFile.getTocRule).
  const body = (c: string) => `　　${c.repeat(1200)}\n`;
  const titles = ['第一章 出山', '第二章 下山', '第三章 归山'];
  writeFileSync(join(src, '山 作者：乙.txt'), titles.map((t, k) => `${t}\n${body('山水云'[k]!)}`).join(''));
  const r = await cli('book', 'add', db, join(src, '山 作者：乙.txt'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const raw = openDb(db, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT id, serialNumber, enable, name FROM txtTocRules ORDER BY serialNumber').raw().all(), APP_DEFAULTS);
  assert.equal((raw.prepare('SELECT rule FROM txtTocRules WHERE id = -2').get() as { rule: string }).rule, RULE_MULU);
  assert.deepEqual(raw.prepare('SELECT title FROM chapters ORDER BY `index`').raw().all().flat(), titles);
  assert.equal((raw.prepare('SELECT tocUrl FROM books').get() as { tocUrl: string }).tocUrl, RULE_MULU);
  raw.close();
});

test('a store whose TOC rules are all disabled gets no defaults (the app inserts them only into an empty table)', async () => {
  const db = join(dir, 'disabled.db');
  assert.equal((await cli('init', db)).code, 0);
  let raw = openDb(db);
  raw.prepare("INSERT INTO txtTocRules (id, name, rule, serialNumber, enable) VALUES (1, 'off', '^第.章.*$', 0, 0)").run();
  raw.close();
  writeFileSync(join(dir, 'b.txt'), `第一章 甲\n${'x'.repeat(50)}\n`);
  const r = await cli('book', 'add', db, join(dir, 'b.txt'), '--json');
  assert.equal(r.code, 0, r.stderr);
  raw = openDb(db, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT id FROM txtTocRules').raw().all(), [[1]]);
  assert.deepEqual(raw.prepare('SELECT title FROM chapters').raw().all(), [['第1章(1)']]);
  raw.close();
});

test('a refused TXT leaves the rules table empty: the defaults are written with the book or not at all', async () => {
  const db = join(dir, 'refused.db');
  assert.equal((await cli('init', db)).code, 0);
  writeFileSync(join(dir, 'bin.txt'), Buffer.from([0x41, 0, 0, 0, 1, 2, 3]));
  const r = await cli('book', 'add', db, join(dir, 'bin.txt'));
  assert.equal(r.code, 1);
  const raw = openDb(db, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT count(*) FROM txtTocRules').raw().get(), [0]);
  raw.close();
});

test('a store at version 49 (no example column) gets the defaults without their examples', () => {
  const path = join(dir, 'v49.db');
  const store = openStore(path, { schema: 49 });
  try {
    // Headings over 1,000 characters apart, as in the first test, so 目录 (-2) scores best.
    const text = `第一章 甲\n${'x'.repeat(1200)}\n第二章 乙\n${'y'.repeat(1200)}\n`;
    const r = addLocalBook(store, { fileName: 'c.txt', bytes: new TextEncoder().encode(text) });
    assert.deepEqual(
      r.chapters.map((c) => c.title),
      ['第一章 甲', '第二章 乙'],
    );
  } finally {
    store.close();
  }
  const raw = openDb(path, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT id, serialNumber, enable, name FROM txtTocRules ORDER BY serialNumber').raw().all(), APP_DEFAULTS);
  raw.close();
});
