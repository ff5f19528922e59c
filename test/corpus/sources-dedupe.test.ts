// `sources dedupe` on a real collection (../shared/corpora): valid JSON out, the file untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { normalizeSourceUrl } from '../../src/node/dedupe.js';
import { cli } from '../helpers/cli.js';
import { snapshot } from '../helpers/files.js';
import { corpora } from './shared.js';

/** The part of `sources dedupe --json` this test reads. */
interface DedupeJson {
  sources: number;
  skippedRecords: number;
  sets: { normalizedUrl: string; keep: { url: string }; drop: { url: string }[] }[];
}

test('dedupe of a real collection: valid JSON, the file untouched', async () => {
  const input = join(corpora(), 'booksources-legado-export-2005', 'exportBookSource5.json');
  const before = snapshot(input);
  const r = await cli('sources', 'dedupe', input, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(input), before);
  const d = JSON.parse(r.stdout) as DedupeJson;
  // 2005 entries, one with an empty URL (not a source); no URL repeats exactly in that file.
  assert.equal(d.sources + d.skippedRecords, 2005);
  assert.equal(d.skippedRecords, 1);
  for (const s of d.sets) {
    assert.ok(s.drop.length >= 1);
    for (const x of [s.keep, ...s.drop]) assert.equal(normalizeSourceUrl(x.url), s.normalizedUrl);
  }
});
