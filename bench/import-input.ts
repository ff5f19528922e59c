// The import benchmarks' input (import.ts, open-import-before-after.ts): real book sources of
// ../shared/corpora sized like the collection, like for like (3.x format only) and mixed
// (with the 2.0-format ones), or the generator's; and the hand-written baseline's record shape.
import { fileURLToPath } from 'node:url';
import { isLegacyBookSource } from '../src/backup/legacy-book-source.js';
import { corpusSources } from '../test/helpers/synth.js';
import { fromJson, SOURCE_JSON } from './contenders/backup-json.js';
import type { SourceIn } from './data.js';

/** What a 2.0 or sloppy record lacks, as the columns' defaults, so the hand-written insert can take any record. */
export function rawSource(o: Record<string, unknown>): SourceIn {
  const r = fromJson(o, SOURCE_JSON) as Record<string, unknown>;
  const int = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
  return {
    ...r,
    bookSourceUrl: String(r.bookSourceUrl),
    bookSourceName: String(r.bookSourceName ?? ''),
    bookSourceType: int(r.bookSourceType),
    customOrder: int(r.customOrder),
    enabled: r.enabled !== false,
    enabledExplore: r.enabledExplore !== false,
    lastUpdateTime: int(r.lastUpdateTime),
    respondTime: int(r.respondTime ?? 180000),
    weight: int(r.weight),
  } as SourceIn;
}

export const TARGET_BYTES_PER_SOURCE = (50 * 1024 * 1024) / 20000;

/** The real sources up to the size that makes their mean about `meanBytes` (20,000 of them then hold ~50 MB). */
export function fitToSize(pool: Record<string, unknown>[] | undefined, meanBytes: number): Record<string, unknown>[] | undefined {
  if (!pool) return undefined;
  const sized = pool.map((s) => ({ s, n: Buffer.byteLength(JSON.stringify(s, null, 2)) })).sort((a, b) => a.n - b.n);
  let total = 0;
  let k = 0;
  while (k < sized.length && (total + sized[k]!.n) / (k + 1) <= meanBytes) total += sized[k++]!.n;
  const kept = new Set(sized.slice(0, Math.max(k, 1)).map((x) => x.s));
  return pool.filter((s) => kept.has(s));
}

/** The inputs to import: [label, the sources (undefined: the generator's)]. */
export function importInputs(generated: boolean): [string, Record<string, unknown>[] | undefined][] {
  const corpora = fileURLToPath(new URL('../../../shared/corpora/', import.meta.url));
  const pool = generated ? undefined : fitToSize(corpusSources(corpora), TARGET_BYTES_PER_SOURCE);
  const modern = pool?.filter((o) => !isLegacyBookSource(o));
  return pool
    ? [
        [`like for like: 3.x-format sources only (${modern!.length} real ones from the corpora)`, modern],
        [`mixed: ${pool.length} real sources of the corpora, ${pool.length - modern!.length} of them 2.0-format`, pool],
      ]
    : [[`like for like: the generator's 3.x-format sources${generated ? '' : ' (../shared/corpora not found)'}`, undefined]];
}
