// Locks between processes: write transactions begin IMMEDIATE, so a writer waits for another
// process's lock up to busyTimeout (and gets BUSY after it), and concurrent read-then-write
// transactions neither fail nor lose an update.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { openStore } from 'legado-store';
import { BusyError } from 'legado-store/errors';
import { tempDir } from './helpers/files.js';
import { startChild } from './helpers/processes.js';

const dir = tempDir();

function newStore(name: string): string {
  const path = join(dir, name);
  const s = openStore(path);
  s.tables.caches.insert({ key: 'counter', value: '0', deadline: 0 });
  s.close();
  return path;
}

/** A read-then-write transaction, as the domain operations do them. */
const increment = (path: string, busyTimeout: number): void => {
  const store = openStore(path, { busyTimeout });
  try {
    store.transaction(() => {
      const n = Number(store.tables.caches.get('counter')!.value);
      store.tables.caches.upsert({ key: 'counter', value: String(n + 1), deadline: 0 });
    });
  } finally {
    store.close();
  }
};

const counter = (path: string): number => {
  const db = openDb(path, { readonly: true });
  try {
    return Number(db.prepare("SELECT value FROM caches WHERE key = 'counter'").pluck().get());
  } finally {
    db.close();
  }
};

test('a lock held for less than busyTimeout: the writer waits for it and succeeds', async () => {
  const path = newStore('short.db');
  const holder = await startChild('lock-holder', [path, '600'], 'locked');
  const started = Date.now();
  increment(path, 10_000);
  const waited = Date.now() - started;
  assert.equal(await holder.exited, 0);
  assert.ok(waited >= 300, `waited for the other process's lock (${waited} ms)`);
  assert.equal(counter(path), 1);
});

test('a lock held for longer than busyTimeout: BUSY after waiting, nothing written', async () => {
  const path = newStore('long.db');
  const holder = await startChild('lock-holder', [path, '5000'], 'locked');
  try {
    const started = Date.now();
    assert.throws(
      () => increment(path, 400),
      (e: unknown) => e instanceof BusyError && e.message.includes(path),
    );
    assert.ok(Date.now() - started >= 300, 'it waited for the timeout first');
  } finally {
    holder.child.kill();
    await holder.exited;
  }
  assert.equal(counter(path), 0);
});

test('four processes writing read-then-write transactions for several seconds: no error, no lost update', async () => {
  const path = newStore('four.db');
  const children = await Promise.all(['a', 'b', 'c', 'd'].map((name) => startChild('writer-child', [path, '3000', name], 'ready')));
  const codes = await Promise.all(children.map((c) => c.exited));
  const outputs = children.map((c) => c.output());
  assert.deepEqual(codes, [0, 0, 0, 0], outputs.join('\n'));
  const counts = outputs.map((o) => Number(/done (\d+)/.exec(o)?.[1]));
  const total = counts.reduce((a, b) => a + b, 0);
  assert.ok(
    counts.every((n) => n > 0),
    `every writer got turns: ${counts.join(', ')}`,
  );
  assert.equal(counter(path), total, 'every increment is there');
  const db = openDb(path, { readonly: true });
  const values = db.prepare("SELECT CAST(value AS INTEGER) FROM caches WHERE key != 'counter' ORDER BY 1").pluck().all() as number[];
  db.close();
  // Each transaction saw the counter the one before left: the values read are 0, 1, 2, ... with no repeat.
  assert.deepEqual(
    values,
    Array.from({ length: total }, (_, i) => i),
  );
});
