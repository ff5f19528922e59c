// `serve` on a port another program holds: a typed PORT_IN_USE naming the port, and saying the
// WebSockets take port + 1 (also when port + 1 is the one taken). Real listeners on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
const portOf = (s: Server): number => (s.address() as { port: number }).port;
const close = (s: Server): Promise<void> => new Promise((r) => s.close(() => r()));

const store = async (): Promise<string> => {
  const path = join(tempDir(), 'a.db');
  assert.equal((await cli('init', path)).code, 0);
  return path;
};

test('serve on a port in use: PORT_IN_USE names it and says the WebSockets take port + 1', { timeout: 30_000 }, async () => {
  const path = await store();
  let holder = await listen(0);
  while (portOf(holder) > 65534) {
    const next = await listen(0); // serve takes ports up to 65,534
    await close(holder);
    holder = next;
  }
  const port = portOf(holder);
  try {
    const r = await cli('serve', path, '--port', String(port));
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^legado-store: PORT_IN_USE: 127\\.0\\.0\\.1:${port} is in use by another program: `));
    assert.match(r.stderr, new RegExp(`port ${port + 1}, port \\+ 1, for its WebSockets`));
  } finally {
    await close(holder);
  }
});

test('serve whose port + 1 is in use: PORT_IN_USE names port + 1 as the WebSocket port, and the HTTP port is let go', { timeout: 30_000 }, async () => {
  const path = await store();
  // A taken port whose port - 1 is free (tried a few times: another program may take it meanwhile).
  let holder: Server | undefined;
  let http = 0;
  for (let i = 0; i < 20 && !holder; i++) {
    const h = await listen(0);
    const p = portOf(h) - 1;
    try {
      await close(await listen(p));
      holder = h;
      http = p;
    } catch {
      await close(h);
    }
  }
  assert.ok(holder, 'a free port below a taken one');
  try {
    const r = await cli('serve', path, '--port', String(http));
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^legado-store: PORT_IN_USE: 127\\.0\\.0\\.1:${http + 1} is in use by another program: `));
    assert.match(r.stderr, new RegExp(`WebSockets listen on the HTTP port \\+ 1 \\(${http} \\+ 1\\)`));
    // The HTTP port it opened first was closed again.
    await close(await listen(http));
  } finally {
    await close(holder);
  }
});
