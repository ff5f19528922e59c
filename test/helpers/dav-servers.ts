// Real WebDAV servers on 127.0.0.1 with Basic authentication, each serving a fresh folder on disk:
// webdav-server (npm) in this process, and rclone's `serve webdav` (Debian) as a child process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v2 as webdav } from 'webdav-server';

export const USER = 'reader';
export const PASSWORD = 'p@ss wörd#1';

export interface DavServer {
  /** The WebDAV address to configure, ending in `/`. */
  readonly url: string;
  /** The folder on disk the server serves. */
  readonly dir: string;
  close(): Promise<void>;
}

/** webdav-server 2 on a physical folder, Basic auth for one account. */
export async function startNodeDav(): Promise<DavServer> {
  const dir = mkdtempSync(join(tmpdir(), 'legado-dav-'));
  const users = new webdav.SimpleUserManager();
  const user = users.addUser(USER, PASSWORD, false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, '/', ['all']);
  const dav = new webdav.WebDAVServer({
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'legado'),
    privilegeManager: privileges,
    requireAuthentification: true,
    rootFileSystem: new webdav.PhysicalFileSystem(dir),
  });
  const http: Server = createServer((req, res) => dav.executeRequest(req, res));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    dir,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const hasRclone = (): boolean => spawnSync('rclone', ['version'], { stdio: 'ignore' }).status === 0;

/** rclone serve webdav on a local folder, Basic auth for one account, no directory cache. */
export async function startRcloneDav(): Promise<DavServer> {
  const dir = mkdtempSync(join(tmpdir(), 'legado-rclone-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    'rclone',
    [
      'serve',
      'webdav',
      dir,
      '--addr',
      `127.0.0.1:${port}`,
      '--user',
      USER,
      '--pass',
      PASSWORD,
      '--dir-cache-time',
      '0s',
      '--config',
      join(dir, '..', 'no-rclone.conf'),
      '-q',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; ; i++) {
    if (await accepts(port)) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`rclone serve webdav did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    dir,
    close: async () => {
      child.kill();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function freePort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
