// Names a server chooses never reach the terminal raw: a backup named "backup\x1b[31mevil\r.zip"
// and a progress file "\x1b[2Jwipe\r_x.json" are printed with their control characters escaped
// (`\x1b`, `\x0d`) by `webdav list`, `restore` and `progress`, and so is a name quoted in an error
// message. A real node:http WebDAV answerer on 127.0.0.1; the command line as a user runs it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliWith } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { phoneBackupZip, storePath } from './helpers/webdav-fixtures.js';

const BACKUP = 'backup\x1b[31mevil\r.zip';
const PROGRESS = '\x1b[2Jwipe\r_x.json';
const ESCAPED_BACKUP = 'backup\\x1b[31mevil\\x0d.zip';
const ESCAPED_PROGRESS = '\\x1b[2Jwipe\\x0d_x.json';

const entry = (href: string, props: string) =>
  `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
const folder = (href: string) => entry(href, '<d:resourcetype><d:collection/></d:resourcetype>');
const file = (href: string, size: number) =>
  entry(href, `<d:resourcetype/><d:getlastmodified>Thu, 01 Jan 2026 00:00:00 GMT</d:getlastmodified><d:getcontentlength>${size}</d:getcontentlength>`);
const multistatus = (...entries: string[]) => `<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">${entries.join('')}</d:multistatus>`;

/** The command line in-process, without a WebDAV password from the environment. */
const run = (args: string[]) => cliWith({ LEGADO_WEBDAV_PASSWORD: undefined }, ...args);

/** Nothing that a terminal would act on: no C0/C1 control character but the line ends. */
function noControls(text: string, what: string): void {
  assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, `${what} holds a raw control character: ${JSON.stringify(text)}`);
}

test('server-chosen names with ESC and CR are printed escaped by webdav list, restore and progress, and in error messages', async () => {
  const zip = await phoneBackupZip();
  const server: Server = createServer((req, res) => {
    req.resume();
    const url = decodeURIComponent(req.url!);
    if (req.method === 'PROPFIND' && /^\/legado\/?$/.test(url)) {
      res
        .writeHead(207, { 'Content-Type': 'application/xml' })
        .end(multistatus(folder('/legado/'), folder('/legado/bookProgress/'), file(`/legado/${encodeURIComponent(BACKUP)}`, zip.byteLength)));
    } else if (req.method === 'PROPFIND' && /^\/legado\/bookProgress\/?$/.test(url)) {
      res
        .writeHead(207, { 'Content-Type': 'application/xml' })
        .end(multistatus(folder('/legado/bookProgress/'), file(`/legado/bookProgress/${encodeURIComponent(PROGRESS)}`, 2)));
    } else if (req.method === 'GET' && url === `/legado/${BACKUP}`) {
      res.writeHead(200, { 'Content-Length': String(zip.byteLength) }).end(zip);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const path = storePath();
    const restore = await run(['webdav', 'restore', path, '--url', url]);
    assert.equal(restore.code, 0, restore.stderr);
    assert.ok(restore.stdout.startsWith(`restored ${ESCAPED_BACKUP} (${zip.byteLength} bytes) from ${url}legado/`), restore.stdout);
    noControls(restore.stdout, 'restore');

    const list = await run(['webdav', 'list', path, '--url', url]);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, `2026-01-01T00:00:00.000Z  ${zip.byteLength}  ${ESCAPED_BACKUP}\n`);
    // --json keeps the exact name (JSON escapes it its own way)
    const json = await run(['webdav', 'list', path, '--url', url, '--json']);
    assert.equal(JSON.parse(json.stdout).backups[0].name, BACKUP);

    const progress = await run(['webdav', 'progress', path, '--url', url, '--pull']);
    assert.equal(progress.code, 0, progress.stderr);
    assert.match(progress.stdout, /^skipped {2}\\x1b\[2Jwipe\\x0d_x\.json: no book on the shelf has this name and author$/m);
    assert.ok(progress.stdout.includes(ESCAPED_PROGRESS));
    noControls(progress.stdout, 'progress');

    // an error message quoting a name (here a path given to import) is escaped as well
    const missing = join(tempDir(), 'gone\x1b[31m\r.zip');
    const error = await run(['import', path, missing]);
    assert.equal(error.code, 1);
    assert.ok(error.stderr.includes('gone\\x1b[31m\\x0d.zip'), error.stderr);
    noControls(error.stderr, 'the error message');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
