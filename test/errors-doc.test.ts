// docs/errors.md lists every error code the store can report: each member of ErrorCode (read
// from src/errors.ts itself) has a row in its "Every code" table, and the table has no other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('docs/errors.md has a row for every ErrorCode and for nothing else', () => {
  const source = readFileSync(root + 'src/errors.ts', 'utf8');
  const union = /export type ErrorCode =([^;]*);/.exec(source);
  assert.ok(union, 'ErrorCode in src/errors.ts');
  const codes = [...union[1]!.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!).sort();
  const doc = readFileSync(root + 'docs/errors.md', 'utf8');
  const table = doc.slice(doc.indexOf('## Every code'));
  const rows = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!).sort();
  assert.deepEqual(rows, codes);
});
