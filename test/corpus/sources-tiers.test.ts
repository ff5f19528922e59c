// Every book source of ../shared/corpora read into a BookSource (2.0 entries converted first, as
// the app's import converts them) and classified by what it needs (rule-engine.md §9's tiers):
// would run here (T0 no JS, T1 plain JS, T2 the app's helpers), or needs what this engine does
// not do (a browser, Java classes, a login page or form). The table is printed; the counts must
// hold together: every source classified, none crashed the parser or the classifier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LegadoStoreError } from '../../src/errors.js';
import { convertLegacyBookSource, isLegacyBookSource } from '../../src/backup/legacy-book-source.js';
import { parseBookSource } from '../../src/sources/engine/source.js';
import { sourceNeeds, type SourceTier } from '../../src/sources/tiers.js';
import { bookSourceFiles, corpora } from './shared.js';

interface Row {
  sources: number;
  legacy: number;
  unparsed: number;
  tiers: Record<SourceTier, number>;
  browser: number;
  java: number;
  login: number;
  unsupported: number;
}

const emptyRow = (): Row => ({ sources: 0, legacy: 0, unparsed: 0, tiers: { T0: 0, T1: 0, T2: 0, T3: 0 }, browser: 0, java: 0, login: 0, unsupported: 0 });

function add(into: Row, from: Row): void {
  for (const k of ['sources', 'legacy', 'unparsed', 'browser', 'java', 'login', 'unsupported'] as const) into[k] += from[k];
  for (const t of ['T0', 'T1', 'T2', 'T3'] as const) into.tiers[t] += from.tiers[t];
}

test('every book source of the corpora is read and classified: would run (T0-T2), needs a browser, a login page or form, Java classes', () => {
  const root = corpora();
  const files = bookSourceFiles(root);
  assert.ok(files.length >= 12, `book-source files found: ${files.join(', ')}`);
  const perFile = new Map<string, Row>();
  const crashes: string[] = [];
  const unparsed: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const row = emptyRow();
    perFile.set(file, row);
    if (text.trim() === '') continue;
    const list = JSON.parse(text) as unknown;
    for (const entry of Array.isArray(list) ? list : [list]) {
      row.sources++;
      try {
        if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new LegadoStoreError('INVALID_ARGUMENT', 'not an object');
        let o = entry as Record<string, unknown>;
        if (isLegacyBookSource(o)) {
          row.legacy++;
          o = convertLegacyBookSource(o, () => true);
        }
        const needs = sourceNeeds(parseBookSource(o));
        row.tiers[needs.tier]++;
        if (needs.browser) row.browser++;
        if (needs.java) row.java++;
        if (needs.login) row.login++;
        if (needs.unsupported) row.unsupported++;
        // The tier follows from the needs: T3 exactly when one of them is there.
        assert.equal(needs.tier === 'T3', needs.browser || needs.java || needs.login);
        assert.ok(!needs.helpers || needs.js);
      } catch (e) {
        if (e instanceof LegadoStoreError || e instanceof SyntaxError) {
          row.unparsed++;
          unparsed.push(`${file}: ${e.message}`);
        } else crashes.push(`${file}: ${e instanceof Error ? e.stack : String(e)}`);
      }
    }
  }
  const total = emptyRow();
  for (const r of perFile.values()) add(total, r);
  const line = (name: string, r: Row): string => {
    const run = r.tiers.T0 + r.tiers.T1 + r.tiers.T2;
    return [name.padEnd(62), r.sources, r.legacy, r.unparsed, run, r.tiers.T0, r.tiers.T1, r.tiers.T2, r.tiers.T3, r.browser, r.login, r.java, r.unsupported]
      .map((v, i) => (i === 0 ? v : String(v).padStart(8)))
      .join('');
  };
  const head = [
    'file'.padEnd(62),
    ...['sources', '2.0', 'unread', 'run', 'T0', 'T1', 'T2', 'T3', 'browser', 'login', 'java', 'skip'].map((h) => h.padStart(8)),
  ].join('');
  console.log([head, ...[...perFile].map(([f, r]) => line(f, r)), line('all', total)].join('\n'));
  console.log(
    'run = T0 + T1 + T2 (the engine runs them); T3 = a browser, a login page or form, or Java classes; skip = what `sources check` reports as not checkable here (a browser, or Java classes beyond Jsoup.parse)',
  );
  if (unparsed.length) console.log(`not read as a source: ${unparsed.slice(0, 5).join('; ')}`);

  assert.deepEqual(crashes.slice(0, 5), [], `${crashes.length} sources crashed the reader or the classifier`);
  const classified = total.tiers.T0 + total.tiers.T1 + total.tiers.T2 + total.tiers.T3;
  assert.equal(classified + total.unparsed, total.sources, 'every source is classified or named as not a source');
  assert.ok(total.sources > 8000, `sources read: ${total.sources}`);
  // The collections hold a few entries that are no source at all, no more.
  assert.ok(total.unparsed * 1000 < total.sources, `${total.unparsed} entries not read as sources`);
  // Every tier is met, and the needs are a part of T3 (a source can have several).
  for (const t of ['T0', 'T1', 'T2', 'T3'] as const) assert.ok(total.tiers[t] > 0, t);
  for (const k of ['browser', 'java', 'login'] as const) assert.ok(total[k] > 0 && total[k] <= total.tiers.T3, k);
  assert.ok(total.tiers.T3 <= total.browser + total.java + total.login);
  assert.ok(total.unsupported <= total.browser + total.java);
});
