// The source-file import's reading alone, against the hand-written baseline's: the store's
// JsonRecordReader giving every record of the harness's bookSource.json (streamed in chunks,
// each chunk's text searched for its facts, every record walked for its depth and exact
// integers), against `JSON.parse` of the whole text read at its fastest (readText). No database.
// Paired blocks in one process, a full collection before each, as the harness's import runs.
//
//   node dist/bench/import-read.js [--count 1000] [--rounds 100]    # any runtime: npx -y -p node@24 node …, bun …
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRecordReader } from '../src/backup/json-stream.js';
import { fileSource } from '../src/fs/byte-sources.js';
import { readText, SOURCE_JSON, writeJson } from './contenders/backup-json.js';
import * as data from './data.js';
import { gc } from './harness.js';
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

const count = Number(flag('count', '1000'));
const rounds = Number(flag('rounds', '100'));
const dir = mkdtempSync(join(benchFiles(), 'import-read-'));
const file = join(dir, 'bookSource.json');
try {
  writeJson(file, data.sources(count, 90).rows as unknown as Record<string, unknown>[], SOURCE_JSON);
  let records = 0;
  const times = pairedBlocks(
    {
      store: () => {
        gc();
        const t0 = performance.now();
        let n = 0;
        for (const _ of new JsonRecordReader(fileSource(file)).records()) n++;
        records = n;
        return (performance.now() - t0) * 1000;
      },
      baseline: () => {
        gc();
        const t0 = performance.now();
        records = (JSON.parse(readText(file)) as unknown[]).length;
        return (performance.now() - t0) * 1000;
      },
    },
    rounds,
  );
  const ms = (name: string) => (median(times[name]!) / 1000).toFixed(2);
  const runtime = (globalThis as { Bun?: { version: string } }).Bun
    ? `Bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`
    : `Node ${process.version}`;
  console.log(`reading ${records} sources, ${runtime}, ${rounds} rounds, load ${load()}`);
  console.log(`store's reader ${ms('store')} ms, JSON.parse of the whole text ${ms('baseline')} ms: store / baseline ${ratio(times, 'store', 'baseline')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
