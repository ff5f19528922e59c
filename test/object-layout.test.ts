// The wide objects the import and export make per record keep V8's fast layout. Added field by
// field under names that change at each step (`row[c.field] = v`), the 29 fields of a book
// source made a dictionary, slower to encode for the insert and to write as JSON (compiled.ts,
// compileSparseRowMaker). Checked with V8's own %HasFastProperties, each case in a fresh
// process: whether such an object ends up a dictionary depends on the shapes made before it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers/files.js';

const skip = 'Bun' in globalThis ? 'JavaScriptCore (Bun) has no %HasFastProperties' : false;
const dir = tempDir('legado-layout-');
const module = (path: string) => JSON.stringify(new URL(`../src/${path}`, import.meta.url).href);

/** Runs `body` in a fresh Node process with natives syntax; it prints how many of its 3 objects were fast. */
function fastIn(name: string, body: string): number {
  const script = join(dir, `${name}.mjs`);
  writeFileSync(
    script,
    `const { schemas } = await import(${module('schema/index.js')});
const sources = schemas[75].table('book_sources');
// A book source as a backup holds it: every column set, the rules as objects, read by JSON.parse
// (its fields in another order than the columns', as in the app's files).
const value = (c, i) => (/^rule[A-Z]/.test(c.field) ? { name: 'r' + i } : c.js === 'string' ? c.field + i : c.js === 'boolean' ? true : i);
const record = (i) => JSON.parse('{' + [...sources.columns].reverse().map((c) => JSON.stringify(c.field) + ':' + JSON.stringify(value(c, i))).join(',') + '}');
const fast = new Function('o', 'return %HasFastProperties(o);');
let n = 0;
${body}
console.log(n);`,
  );
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('a row the import builds from a wide record keeps V8’s fast layout', { skip }, () => {
  const n = fastIn(
    'import',
    `const { RowBuilder, Clock } = await import(${module('backup/record.js')});
const { newKindReport } = await import(${module('backup/report.js')});
const builder = RowBuilder.of(sources, 75);
for (let i = 0; i < 3; i++) if (fast(builder.build(record(i), newKindReport('bookSource', 'book_sources'), { clock: new Clock(1) }).row)) n++;`,
  );
  assert.equal(n, 3);
});

test('an object the export writes for a wide row keeps V8’s fast layout', { skip }, () => {
  const n = fastIn(
    'export',
    `const { toJsonValue } = await import(${module('backup/export.js')});
for (let i = 0; i < 3; i++) {
  const row = record(i);
  for (const c of sources.columns) if (/^rule[A-Z]/.test(c.field)) row[c.field] = JSON.stringify(row[c.field]);
  const json = toJsonValue(sources, row);
  if (Object.keys(json).length === sources.columns.length && json.ruleSearch.name === 'r' + i && fast(json)) n++;
}`,
  );
  assert.equal(n, 3);
});

test('the check tells: 29 fields added by changing names make a dictionary', { skip }, () => {
  const n = fastIn('control', `for (let i = 0; i < 3; i++) { const o = {}; for (const c of sources.columns) o[c.field] = i; if (fast(o)) n++; }`);
  assert.equal(n, 0);
});
