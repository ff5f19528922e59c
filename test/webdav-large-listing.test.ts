// A folder of 130,000 backups: `webdav list` prints every one as text, newest first, where a
// spread into Math.max once overflowed the stack past 125,000 names (issue 27). A real
// node:http answerer on 127.0.0.1 with one PROPFIND listing; the command line in-process.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { cliWith } from './helpers/cli.js';

const COUNT = 130_000;
const name = (i: number) => `backup2025-01-01-d${i}.zip`;
const entry = (href: string, props: string) =>
  `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
// Each backup a second later than the one before: the newest is the last one listed.
const file = (i: number) =>
  entry(
    `/legado/${name(i)}`,
    `<d:resourcetype/><d:getlastmodified>${new Date(Date.UTC(2025, 0, 1) + i * 1000).toUTCString()}</d:getlastmodified><d:getcontentlength>${i}</d:getcontentlength>`,
  );

test(`webdav list prints a folder of ${COUNT.toLocaleString('en')} backups as text, every one, newest first`, async () => {
  const parts = ['<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">', entry('/legado/', '<d:resourcetype><d:collection/></d:resourcetype>')];
  for (let i = 0; i < COUNT; i++) parts.push(file(i));
  parts.push('</d:multistatus>');
  const body = Buffer.from(parts.join(''));
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.method === 'PROPFIND' && /^\/legado\/?$/.test(req.url!)) res.writeHead(207, { 'Content-Type': 'application/xml' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const r = await cliWith({ LEGADO_WEBDAV_PASSWORD: undefined }, 'webdav', 'list', '--url', url, '--max-listing', '64M');
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, COUNT);
    assert.ok(lines[0]!.endsWith(`  ${name(COUNT - 1)}`), lines[0]);
    assert.ok(lines[COUNT - 1]!.endsWith(`  ${name(0)}`), lines[COUNT - 1]);
    assert.equal(new Set(lines).size, COUNT);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
