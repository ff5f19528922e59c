// The fast reader (array split into elements, each parsed by JSON.parse) must give exactly what
// the exact reader gives: the same records for every input and chunking, and on bad input the
// same records followed by the same error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidJsonError } from '../src/backup/errors.js';
import { JsonArraySplitter } from '../src/backup/json-array-splitter.js';
import { JsonRecordReader, type JsonSource } from '../src/backup/json-stream.js';
import { fileSource } from '../src/fs/byte-sources.js';
import { bytesSource } from '../src/backup/byte-source.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/files.js';

const mem = (text: string, chunk?: number): JsonSource => bytesSource('mem.json', Buffer.from(text), chunk);
const values = (text: string, chunk: number) => [...new JsonRecordReader(mem(text, chunk)).records()].map((r) => r.value);

/** A small deterministic generator, so a failure can be reproduced from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x297a2d39) >>> 0) / 2 ** 32;
}

const PIECES = ['"', '\\', '\\"', '\\\\', '[', ']', '{', '}', ',', ':', ' ', '\n', '书', '📚', '\uFEFF', 'a', '9', '\u0000', '\u2028'];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 4 : 7));
  switch (k) {
    case 0:
      return Array.from({ length: Math.floor(r() * 6) }, () => PIECES[Math.floor(r() * PIECES.length)]).join('');
    case 1:
      return Math.floor(r() * 1e6) * (r() < 0.3 ? -1 : 1) + (r() < 0.2 ? 0.25 : 0);
    case 2:
      return r() < 0.5 ? null : r() < 0.5;
    case 3:
      return '12345678901234567890'; // a long digit run inside a string stays a string
    case 4:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[String(randomValue(r, 9)).slice(0, 8) + i] = randomValue(r, depth + 1);
      return o;
    }
  }
}

test('random arrays read the same as JSON.parse at every chunk size', () => {
  for (let seed = 1; seed <= 150; seed++) {
    const r = rng(seed);
    const items = Array.from({ length: 1 + Math.floor(r() * 8) }, () => randomValue(r, 0));
    const text = JSON.stringify(items, null, seed % 3 === 0 ? undefined : seed % 3);
    for (const chunk of [1, 2, 3, 5, 16, 1 << 16]) {
      assert.deepEqual(values(text, chunk), JSON.parse(text), `seed ${seed}, chunk ${chunk}`);
    }
  }
});

test('64-bit integers outside strings are exact; the same digits inside a string stay text', () => {
  const text = '[{"group": 9223372036854775807, "s": "9223372036854775807"}, {"n": 1234567890123}, -9223372036854775808]';
  for (const chunk of [1, 4, 1 << 16]) {
    assert.deepEqual(values(text, chunk), [{ group: 9223372036854775807n, s: '9223372036854775807' }, { n: 1234567890123 }, -9223372036854775808n]);
  }
});

test('the splitter finds element boundaries only outside strings, and refuses what is not a plain array', () => {
  const split = (text: string) => new JsonArraySplitter().push(Buffer.from(text))?.map((e) => Buffer.from(e.bytes).toString());
  assert.deepEqual(split('[ "a,]\\"}", {"b":[1,2]} ,3 ]'), ['"a,]\\"}"', '{"b":[1,2]} ', '3 ']);
  assert.deepEqual(split('[]'), []);
  assert.equal(split('{"a":1}'), undefined);
  assert.equal(split('[1,,2]'), undefined);
  assert.equal(split('[1,2,]'), undefined);
  assert.equal(split('[1] x'), undefined);
});

test('after an element that does not parse, the records before it come once, then the exact error', () => {
  const text = '[\n  {"a": 1},\n  {"b": 2},\n  {"c": tru}\n]';
  const reader = new JsonRecordReader(mem(text, 4));
  const seen: unknown[] = [];
  assert.throws(
    () => {
      for (const rec of reader.records()) seen.push(rec.value);
    },
    (e: unknown) => e instanceof InvalidJsonError && e.line === 4 && e.column === 12 && /unexpected character "}"/.test(e.message),
  );
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }]);
  // A trailing comma: every element parses, the array does not close as JSON allows.
  assert.throws(
    () => values('[{"a": 1},\n{"b": 2},\n]', 3),
    (e: unknown) => e instanceof InvalidJsonError && e.line === 3 && e.column === 1,
  );
  // Bytes that are not UTF-8 inside a string.
  assert.throws(() => [...new JsonRecordReader(bytesSource('bin.json', Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]))).records()], InvalidJsonError);
});

/** Records whose strings and nested arrays hold what a cut between elements looks like. */
function lookalikes(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    url: `https://s${i}`,
    js: i % 3 === 0 ? 'a},{b}, {c},\t{' : 'x'.repeat(i % 50),
    list: i % 4 === 0 ? [{ a: 1 }, { b: [{ c: 2 }, { d: 3 }] }] : [],
    rule: { name: `n${i}`, deep: { deeper: { deepest: i } } },
  }));
}

test('cuts that strings and nested arrays only look like are not taken: the records are JSON.parse’s at every chunk size and layout', () => {
  const items = lookalikes(300);
  for (const indent of [undefined, 1, 2, '\t'] as const) {
    const text = JSON.stringify(items, null, indent);
    for (const chunk of [7, 64, 500, 4096, 1 << 16]) {
      const records = [...new JsonRecordReader(mem(text, chunk)).records()];
      assert.deepEqual(
        records.map((r) => r.value),
        items,
        `indent ${String(indent)}, chunk ${chunk}`,
      );
      assert.deepEqual(
        records.map((r) => r.index),
        items.map((_, i) => i),
      );
    }
  }
});

test('what the reader tells of each record: its depth, and whether a surrogate or separator may be in it', () => {
  // biome-ignore lint/correctness/noPrecisionLoss: rounded here on purpose; the JSON text below puts the exact digits back
  const items = [{ a: 1 }, { a: { b: [{ c: 1 }] } }, { s: 'plain' }, { s: 'x📚y' }, { s: 'line\u2028sep' }, { n: 9007199254740993 }];
  // The long integer must come through exact: it is written as text, not rounded by JSON.stringify.
  const text = JSON.stringify(items, null, 2).replace('9007199254740992', '9007199254740993');
  for (const chunk of [16, 1 << 16]) {
    const records = [...new JsonRecordReader(mem(text, chunk)).records()];
    assert.deepEqual(
      records.map((r) => r.text?.depth),
      [1, 4, 1, 1, 1, 1],
    );
    assert.equal(records[5]!.value && (records[5]!.value as { n: unknown }).n, 9007199254740993n);
    // Facts are per parsed group: a record alone in its group is exact; a shared group may only say "check".
    const only = (i: number) => [...new JsonRecordReader(mem(JSON.stringify([items[i]]), chunk)).records()][0]!.text!;
    assert.deepEqual([only(2).surrogates, only(2).separators], [false, false]);
    assert.equal(only(3).surrogates, false); // an emoji decoded from UTF-8: a pair, not lone, and no escape
    assert.equal(only(4).separators, true);
    const escaped = [...new JsonRecordReader(mem('[{"s": "\\ud83d"}, {"t": "\\u2029"}]', chunk)).records()];
    assert.equal(escaped[0]!.text!.surrogates, true);
    assert.equal(escaped[1]!.text!.separators, true);
  }
  // Escapes are looked at one by one up to a number, then by a search of the whole text: either
  // way a surrogate or separator escape is found wherever it is, in either case, and escapes of
  // anything else (JavaScript in a rule writes `\\u5206`: a `\u` after an escaped backslash) rule
  // out both.
  const factsOf = (text: string) => {
    const [rec] = [...new JsonRecordReader(mem(text, 1 << 16)).records()];
    return [rec!.text!.surrogates, rec!.text!.separators];
  };
  for (const n of [0, 3, 40, 65, 500]) {
    const others = '\\\\u5206'.repeat(n) + '\\u5206'.repeat(n);
    assert.deepEqual(factsOf(`[{"s": "${others}"}]`), [false, false], `${n} other escapes`);
    for (const [esc, facts] of [
      ['\\uDBFF', [true, false]],
      ['\\udc00', [true, false]],
      ['\\u2028', [false, true]],
      ['\\u2029', [false, true]],
    ] as const) {
      assert.deepEqual(factsOf(`[{"s": "${others}", "t": "${esc}"}]`), facts, `${esc} after ${n} other escapes`);
    }
  }
});

test('a file read through one reused buffer: an element across many chunks, and the line and column of an error after it', () => {
  const dir = tempDir();
  const items = lookalikes(40).map((o, i) => (i === 20 ? { ...(o as object), big: 'y'.repeat(5000) } : o));
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify(items, null, 2));
  for (const chunk of [13, 256, 4096]) {
    const records = [...new JsonRecordReader(fileSource(good, good, chunk)).records()];
    assert.deepEqual(
      records.map((r) => r.value),
      items,
    );
    // All from the fast reader: bytes it kept were not overwritten by the next read (the exact reader would have hidden that).
    assert.ok(
      records.every((r) => r.text !== undefined),
      `chunk ${chunk}`,
    );
  }
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, `[\n{"a": "${'书'.repeat(1000)}", "b": tru }\n]`);
  for (const chunk of [13, 256]) {
    assert.throws(
      () => [...new JsonRecordReader(fileSource(bad, 'bad.json', chunk)).records()],
      (e: unknown) => e instanceof InvalidJsonError && e.line === 2 && e.column === 1019,
    );
  }
});

test('elements longer than the reader keeps at first (128 KB) and than it carries (1 MB) come whole, in order, with those around them', () => {
  const sizes = [10, 200_000, 20, 700_000, 5, 1_300_000, 30, 150_000];
  const items = sizes.map((n, i) => ({ id: i, text: i % 2 ? '书'.repeat(n / 3) : 'x'.repeat(n), rule: { a: i } }));
  for (const indent of [undefined, 2] as const) {
    const text = JSON.stringify(items, null, indent);
    for (const chunk of [4096, 1 << 16]) {
      const records = [...new JsonRecordReader(mem(text, chunk)).records()];
      assert.deepEqual(
        records.map((r) => r.value),
        items,
        `indent ${String(indent)}, chunk ${chunk}`,
      );
      assert.deepEqual(
        records.map((r) => r.index),
        items.map((_, i) => i),
      );
      // Every record from the fast reader (the exact reader, which knows no text facts, would hide a failure there).
      assert.ok(
        records.every((r) => r.text !== undefined),
        `indent ${String(indent)}, chunk ${chunk}`,
      );
    }
  }
});
