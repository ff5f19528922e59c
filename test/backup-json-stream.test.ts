import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { InvalidJsonError, UnsupportedInputError } from '../src/backup/errors.js';
import { JsonRecordReader } from '../src/backup/json-stream.js';
import { fileSource } from '../src/fs/byte-sources.js';
import { bytesSource, MemorySink, readText } from '../src/backup/byte-source.js';
import { tempDir } from './helpers/files.js';

type Given = { name: string; data?: Uint8Array; path?: string };
const read = (given: Given, chunk = 7) => {
  const source = given.path !== undefined ? fileSource(given.path, given.name, chunk) : bytesSource(given.name, given.data!, chunk);
  const reader = new JsonRecordReader(source);
  const records = [...reader.records()];
  return { reader, records };
};
const mem = (text: string | Uint8Array, name = 'mem.json'): Given => ({ name, data: typeof text === 'string' ? Buffer.from(text) : text });

test('array elements come one by one with their index, across tiny chunks and multi-byte characters', () => {
  const items = [{ a: '书源📚', b: [1, { c: null }] }, 'x', 3, { d: true }];
  const { reader, records } = read(mem(JSON.stringify(items, null, 2)), 3);
  assert.equal(reader.root, 'array');
  assert.deepEqual(
    records.map((r) => r.index),
    [0, 1, 2, 3],
  );
  assert.deepEqual(
    records.map((r) => r.value),
    items,
  );
});

test('U+FEFF inside strings is kept, wherever the chunks split', () => {
  const items = ['a)\uFEFF]b', '\uFEFFx', '书\uFEFF'];
  for (const chunk of [1, 2, 3, 5, 64])
    assert.deepEqual(
      read(mem(JSON.stringify(items)), chunk).records.map((r) => r.value),
      items,
    );
});

test('a top-level object is one record; a BOM, CRLF and surrounding whitespace are fine', () => {
  const { reader, records } = read(mem(`\uFEFF \r\n{"bookSourceUrl":"u"}\r\n`));
  assert.equal(reader.root, 'object');
  assert.deepEqual(records, [{ index: 0, value: { bookSourceUrl: 'u' } }]);
});

test('empty and whitespace-only files hold no records', () => {
  for (const text of ['', '  \n ']) {
    const { reader, records } = read(mem(text));
    assert.equal(reader.root, 'empty');
    assert.equal(records.length, 0);
  }
  assert.equal(read(mem('[]')).records.length, 0);
});

test('integers beyond 2^53 stay exact as bigint; others are numbers', () => {
  const { records } = read(mem('[{"g":-9223372036854775808,"h":9223372036854775807,"i":1702154033416.5159,"j":12}]'));
  assert.deepEqual(records[0]!.value, { g: -9223372036854775808n, h: 9223372036854775807n, i: 1702154033416.5159, j: 12 });
});

test('invalid JSON names the file, line and column (characters, 1-based)', () => {
  const dir = tempDir();
  const path = join(dir, 'bad.json');
  writeFileSync(path, '[\n  {\n    "名": "值",\n    "x": 1,\n  }\n]');
  assert.throws(
    () => read({ name: 'bad.json', path }, 4),
    (e: unknown) => e instanceof InvalidJsonError && e.line === 5 && e.column === 3 && e.code === 'INVALID_JSON' && /bad\.json:5:3/.test(e.message),
  );
  // A stray character: reported where the tokenizer stops.
  assert.throws(
    () => read(mem('[1,\n 2,\n @]')),
    (e: unknown) => e instanceof InvalidJsonError && e.line === 3 && e.column === 2,
  );
  // Truncated input: reported at the end.
  assert.throws(
    () => read(mem('[{"a": "b"')),
    (e: unknown) => e instanceof InvalidJsonError && /end/.test(e.detail),
  );
  // Trailing garbage after the value.
  assert.throws(() => read(mem('[1] x')), InvalidJsonError);
});

test('a scalar at the top level is not a collection of records', () => {
  assert.throws(() => read(mem('"just a string"')), UnsupportedInputError);
});

test('whole-source text and collected output are copies: a reused read buffer does not change them', () => {
  const dir = tempDir();
  const path = join(dir, 'servers.json');
  const text = JSON.stringify([
    { id: 1, config: '书'.repeat(100) },
    { id: 2, config: 'x'.repeat(100) },
  ]);
  writeFileSync(path, text);
  assert.equal(readText(fileSource(path, path, 16)), text);
  const sink = new MemorySink();
  const buf = Buffer.from('abc');
  sink.write(buf);
  buf.fill(0x7a);
  sink.write(buf);
  assert.equal(Buffer.from(sink.bytes()).toString(), 'abczzz');
});

test('a long read asks the runtime to collect every 2 MiB (Bun.gc(false); a stand-in for Bun elsewhere)', () => {
  const g = globalThis as { Bun?: { gc(force: boolean): unknown } };
  const real = g.Bun?.gc;
  const calls: boolean[] = [];
  const spy = (force: boolean) => void calls.push(force);
  if (g.Bun) g.Bun.gc = spy;
  else g.Bun = { gc: spy };
  try {
    // A little over 5 MiB of records: hints after 2 and after 4 MiB.
    const one = JSON.stringify({ bookSourceUrl: 'https://x.test/', ruleContent: 'x'.repeat(1000) });
    const n = Math.ceil((5 << 20) / (one.length + 1));
    const data = new TextEncoder().encode(`[${Array(n).fill(one).join(',')}]`);
    let read = 0;
    for (const rec of new JsonRecordReader(bytesSource('big.json', data)).records()) read += rec.index === read ? 1 : 0;
    assert.equal(read, n);
    assert.deepEqual(calls, [false, false]);
  } finally {
    if (real) g.Bun!.gc = real;
    else delete g.Bun;
  }
});
