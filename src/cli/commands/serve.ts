// `legado-store serve <store>`: the app's web API answered from the store (src/server), on
// 127.0.0.1 unless --host says otherwise; off the loopback address HTTP Basic credentials are
// required (--user, the password from LEGADO_SERVE_PASSWORD only, never printed). SIGINT or
// SIGTERM stop it: no new requests, those in flight finish, the store is closed.
import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import type { BookshelfSortValue } from '../../domain/books.js';
import type { SchemaVersion } from '../../schema/index.js';
import { startServer } from '../../node/server.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { EXIT, UsageError } from '../exit.js';
import { secretFromEnv } from '../secret.js';
import { parseAllowedHost, parseListedOrigin } from '../../server/origin-policy.js';
import { PASSWORD_ENV as WEBDAV_PASSWORD_ENV } from './webdav.js';
import { ruleTimeLimit } from './book.js';

export const SERVE_PASSWORD_ENV = 'LEGADO_SERVE_PASSWORD';
/** Set to 1: as --allow-private-hosts (the same variable every command that fetches reads). */
export const ALLOW_PRIVATE_ENV = 'LEGADO_ALLOW_PRIVATE_HOSTS';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

interface Flags {
  host: string;
  port: string;
  web?: string;
  user?: string;
  sort: string;
  maxBody: string;
  webdavUrl?: string;
  webdavDir: string;
  webdavUser?: string;
  corsOrigin: string[];
  allowedHost: string[];
  ruleTimeLimit?: string;
  allowPrivateHosts?: boolean;
  sourceTimeout?: string;
}

const collect = (v: string, all: string[]) => [...all, v];

export function registerServe(program: Command, io: CliRun): void {
  program
    .command('serve')
    .description("answer the app's web API (its web front-end, its clients) from the store; WebSockets on port + 1")
    .argument('<store>', 'the store file')
    .option('--host <address>', 'address to listen on; another than 127.0.0.1 requires --user', '127.0.0.1')
    .option('--port <n>', "HTTP port, as the app's webPort setting", '1122')
    .option('--web <dir>', "the app's web folder (assets/web, the built front-end under vue/), served for every other path")
    .option('--user <name>', `require HTTP Basic credentials: this user, the password from ${SERVE_PASSWORD_ENV}`)
    .option('--cors-origin <origin>', 'pages of this origin (scheme://host[:port]) may read and write (CORS); repeatable', collect, [])
    .option('--allowed-host <name>', 'also answer requests for this Host (name or name:port); repeatable', collect, [])
    .option('--sort <n>', "the app's bookshelfSort setting for /getBookshelf: 0 last read, 1 latest chapter, 2 name, 3 manual", '0')
    .option('--max-body <MiB>', 'largest request body in MiB', '32')
    .option('--webdav-url <url>', `upload reading progress to the app's WebDAV folder on every save (password from ${WEBDAV_PASSWORD_ENV})`)
    .option('--webdav-dir <dir>', "the app's WebDAV sub-folder", 'legado')
    .option('--webdav-user <account>', 'the WebDAV account')
    .option(
      '--allow-private-hosts',
      `let the server's fetches (covers, web books' sources) reach loopback, private and link-local addresses, as on a LAN (or ${ALLOW_PRIVATE_ENV}=1); refused by default`,
    )
    .option('--source-timeout <ms>', "longest a request waits on a web book's source (its TOC, a chapter), in ms", '30000')
    .option(
      '--rule-time-limit <ms>',
      "a TOC rule's time limit (per rule when choosing: default 3000; per 512,000-byte block when splitting: default 10000) and the longest a replace rule may run (default 10000)",
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ legado-store serve legado.db\n  $ legado-store serve legado.db --web ./assets/web\n  $ ${SERVE_PASSWORD_ENV}=... legado-store serve legado.db --host 0.0.0.0 --user me\n`,
    )
    .action(async (path: string, flags: Flags) => {
      const port = Number(flags.port);
      if (!/^\d+$/.test(flags.port) || port > 65534)
        throw new UsageError(`--port must be 0 to 65534 (the WebSockets take port + 1), not ${JSON.stringify(flags.port)}`);
      if (!/^[0-3]$/.test(flags.sort)) throw new UsageError(`--sort must be 0, 1, 2 or 3, not ${JSON.stringify(flags.sort)}`);
      const maxBody = Number(flags.maxBody);
      if (!(maxBody > 0)) throw new UsageError(`--max-body must be a positive number of MiB, not ${JSON.stringify(flags.maxBody)}`);
      const password = flags.user === undefined ? undefined : secretFromEnv(io, SERVE_PASSWORD_ENV);
      if (flags.user !== undefined && !password) throw new UsageError(`--user needs the password in ${SERVE_PASSWORD_ENV}`);
      if (!LOOPBACK.has(flags.host) && flags.user === undefined) {
        throw new UsageError(`listening on ${flags.host} lets other machines in: give --user and the password in ${SERVE_PASSWORD_ENV}`);
      }
      const corsOrigins = flags.corsOrigin.map((o) => {
        const origin = parseListedOrigin(o);
        if (origin === undefined)
          throw new UsageError(`--cors-origin must be an origin, scheme://host[:port] (http or https, no path), not ${JSON.stringify(o)}`);
        return origin;
      });
      const allowedHosts = flags.allowedHost.map((h) => {
        const name = parseAllowedHost(h);
        if (name === undefined) throw new UsageError(`--allowed-host must be a host name or address, optionally with :port, not ${JSON.stringify(h)}`);
        return name;
      });
      const webdav = flags.webdavUrl
        ? {
            url: flags.webdavUrl,
            dir: flags.webdavDir,
            user: flags.webdavUser,
            password: flags.webdavUser === undefined ? undefined : secretFromEnv(io, WEBDAV_PASSWORD_ENV),
            timeoutMs: 15_000,
            retries: 1,
          }
        : undefined;

      const sourceTimeout = flags.sourceTimeout ?? '30000';
      if (!/^\d+$/.test(sourceTimeout) || Number(sourceTimeout) < 1)
        throw new UsageError(`--source-timeout must be a positive whole number of ms, not ${JSON.stringify(sourceTimeout)}`);
      const limit = ruleTimeLimit(flags.ruleTimeLimit, '--rule-time-limit').timeLimitMs;
      const allowPrivateHosts = flags.allowPrivateHosts === true || io.env[ALLOW_PRIVATE_ENV] === '1';
      const store = openStore(path, { create: false }) as Store<SchemaVersion>;
      try {
        const server = await startServer(store, {
          host: flags.host,
          port,
          web: flags.web,
          bookshelfSort: Number(flags.sort) as BookshelfSortValue,
          maxBodyBytes: Math.round(maxBody * (1 << 20)),
          auth: flags.user !== undefined ? { user: flags.user, password: password! } : undefined,
          corsOrigins,
          allowedHosts,
          allowPrivateHosts,
          sourceTimeoutMs: Number(sourceTimeout),
          webdav,
          ...(limit !== undefined ? { ruleTimeLimitMs: limit } : {}),
          log: (line) => io.stderr.write(`${line}\n`),
        });
        const out = io.stdout;
        out.write(`legado-store serve: ${path} (schema ${store.version})\n`);
        out.write(`  HTTP       ${server.url}\n  WebSocket  ${server.wsUrl}\n`);
        out.write(flags.web ? `  web folder ${flags.web}\n` : `  no --web folder: ${server.url} shows how to add the app's front-end\n`);
        out.write(
          flags.user !== undefined
            ? `  HTTP Basic credentials required (user ${flags.user}, password from ${SERVE_PASSWORD_ENV})\n`
            : '  no credentials: only this machine can connect\n',
        );
        if (corsOrigins.length > 0) out.write(`  pages of ${corsOrigins.join(', ')} may read and write (CORS)\n`);
        if (allowedHosts.length > 0) out.write(`  also answering Host ${allowedHosts.join(', ')}\n`);
        if (allowPrivateHosts) out.write("  the server's fetches may reach loopback and private addresses (--allow-private-hosts)\n");
        if (webdav) out.write(`  progress uploaded to ${flags.webdavUrl} (${flags.webdavDir})\n`);
        out.write('Ctrl-C stops it.\n');
        const signal = await new Promise<string>((resolve) => {
          process.once('SIGINT', () => resolve('SIGINT'));
          process.once('SIGTERM', () => resolve('SIGTERM'));
        });
        out.write(`${signal}: stopping (requests in flight finish)\n`);
        await server.close();
      } finally {
        store.close();
      }
      io.stdout.write('stopped, store closed\n');
      io.exitCode = EXIT.ok;
    });
}
