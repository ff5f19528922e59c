// One import is one transaction: a child process importing a large collection into a store
// that already has rows is killed (SIGKILL) at many moments; afterwards the store holds all of
// the new rows or none of them, every old row, and passes PRAGMA integrity_check.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { openStore } from '../src/store/open.js';
import { source } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';
import { generatedSource, writeCollection } from './helpers/synth.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const CHILD = fileURLToPath(new URL('./helpers/import-child.js', import.meta.url));
const COUNT = 4000;
const OLD = 20;

interface Run {
  readonly outcome: 'killed' | 'done';
  readonly records: number;
}

/** Runs the child; kills it when `when` says so (after a time, or once enough records are read). */
function runChild(store: string, input: string, when: { ms?: number; records?: number; delay?: number; hold?: boolean }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const args = when.hold && when.records !== undefined ? [String(when.records)] : [];
    const child = spawn(process.execPath, [CHILD, store, input, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let records = 0;
    let done = false;
    let killing = false;
    let stderr = '';
    const kill = () => child.kill('SIGKILL');
    const timer = when.ms !== undefined ? setTimeout(kill, when.ms) : undefined;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) {
        if (line.startsWith('progress ')) records = Number(line.slice(9));
        if (line.startsWith('done')) done = true;
      }
      if (when.records !== undefined && records >= when.records && !killing) {
        killing = true;
        if (when.delay) setTimeout(kill, when.delay);
        else kill();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === null && code !== 0) reject(new Error(`child failed (${code}): ${stderr}`));
      else resolve({ outcome: done && signal === null ? 'done' : 'killed', records });
    });
  });
}

test('SIGKILL at any moment of an import leaves all or nothing of it, and every old row', { timeout: 180_000 }, async (tc) => {
  const dir = tempDir();
  const input = join(dir, 'collection.json');
  writeCollection(input, COUNT);
  // The template store: old sources (the first OLD share keys with the collection), a book with chapters.
  const template = join(dir, 'template.db');
  const t = openStore(template);
  for (let i = 0; i < OLD + 5; i++) {
    const url = i < OLD ? String(generatedSource(i).bookSourceUrl) : `https://old${i}.example`;
    t.tables.book_sources.insert(source(url, { bookSourceName: 'old', respondTime: 0 }));
  }
  t.tables.books.insert({ bookUrl: 'https://book', name: 'Kept', author: 'K', type: 8 });
  for (let i = 0; i < 5; i++)
    t.tables.chapters.insert({ url: `c${i}`, title: `C${i}`, isVolume: false, baseUrl: 'b', bookUrl: 'https://book', index: i, isVip: false, isPay: false });
  t.close();

  const check = (path: string): 'all' | 'none' => {
    const s = openStore(path);
    try {
      assert.equal(s.db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(s.tables.books.count(), 1);
      assert.equal(s.tables.chapters.count({ bookUrl: 'https://book' }), 5);
      for (let i = OLD; i < OLD + 5; i++) assert.ok(s.tables.book_sources.has(`https://old${i}.example`));
      const total = s.tables.book_sources.count();
      const renamed = s.tables.book_sources.count({ bookSourceName: { ne: 'old' } });
      if (total === OLD + 5 && renamed === 0) return 'none';
      assert.equal(total, COUNT + 5, 'all new rows or none');
      assert.equal(renamed, COUNT, 'every old row that the import updates is updated');
      return 'all';
    } finally {
      s.close();
    }
  };

  // A run to the end first: how long an import takes here.
  const full = join(dir, 'full.db');
  copyFileSync(template, full);
  const started = performance.now();
  const reference = await runChild(full, input, {});
  const duration = performance.now() - started;
  assert.equal(reference.outcome, 'done');
  assert.equal(check(full), 'all');

  // Kills by time, at points of the reading (inside the transaction), and around the commit
  // (after the last records were read, with growing delays).
  const points: { ms?: number; records?: number; delay?: number; hold?: boolean }[] = [
    { ms: 0 },
    { ms: 40 },
    // Inside the transaction: the child stops at that record until the kill lands.
    ...[0.01, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95, 0.99].map((f) => ({ records: Math.max(1, Math.floor(f * COUNT)), hold: true })),
    ...[0.5, 0.8].map((f) => ({ ms: Math.round(f * duration) })),
    ...[0, 1, 2, 4, 8, 16, 32, 64].map((delay) => ({ records: reference.records, delay })),
  ];
  const outcomes: string[] = [];
  for (const [i, when] of points.entries()) {
    const path = join(dir, `kill${i}.db`);
    copyFileSync(template, path);
    const run = await runChild(path, input, when);
    const state = check(path);
    if (when.hold) assert.equal(state, 'none', `killed inside the transaction, after ${run.records} records`);
    if (run.outcome === 'done') assert.equal(state, 'all');
    outcomes.push(`${JSON.stringify(when)}→${run.outcome}/${state}`);
  }
  tc.diagnostic(outcomes.join(' '));
  assert.ok(
    outcomes.some((o) => o.endsWith('killed/none')),
    outcomes.join(' '),
  );
});
