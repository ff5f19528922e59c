// The WebSocket server on port + 1 (the front-end always connects there): /searchBook,
// /bookSourceDebug and /rssSourceDebug need the rule engine, so each answers a message in the
// app's form, saying so, then closes normally with the app's closing reason. Never a hang.
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { SOCKET_FINISH as FINISH, socketReply } from '../server/socket-answer.js';
import { checkHost, checkOrigin, type DoorRequest } from '../server/origin-policy.js';

/** The HTTP server's front door, for the sockets: its own pages are on the HTTP port. */
export interface SocketDoor {
  readonly httpPort: number;
  readonly corsOrigins: ReadonlySet<string>;
  /** The Host names answered on the socket port (undefined: any). */
  readonly allowedHosts: (wsPort: number) => readonly string[] | undefined;
}

/** A socket that sends nothing is closed after this long. */
const IDLE_MS = 60_000;

function answer(path: string, socket: WebSocket, text: string): void {
  socket.send(socketReply(path, text));
  socket.close(1000, FINISH[path]!);
}

/**
 * A browser's upgrade is let in when its Host is one the server answers and its Origin is the HTTP
 * server's own (same host name, the HTTP port) or a listed one: a page elsewhere cannot open one.
 */
function admitted(req: IncomingMessage, wsPort: number, door: SocketDoor): { status: number; text: string } | undefined {
  const hostHeader = req.headers.host;
  const asked: DoorRequest = {
    method: 'GET',
    url: `http://${hostHeader ?? 'localhost'}${req.url ?? '/'}`,
    headers: { get: (name) => [req.headers[name.toLowerCase()] ?? null].flat().join(', ') || null },
  };
  const host = checkHost(asked, door.allowedHosts(wsPort));
  if (host) return host;
  let own: string | undefined;
  try {
    own = `http://${new URL(asked.url).hostname}:${door.httpPort}`;
  } catch {
    own = undefined;
  }
  return checkOrigin(asked, door.corsOrigins, own).refusal;
}

export function startSockets(host: string, port: number, door: SocketDoor): Promise<WebSocketServer> {
  return new Promise((resolvePromise, reject) => {
    const wss: WebSocketServer = new WebSocketServer({
      host,
      port,
      maxPayload: 1 << 20,
      verifyClient: (info, done) => {
        const refusal = admitted(info.req, (wss.address() as { port: number }).port, door);
        if (refusal) done(false, refusal.status, refusal.text);
        else done(true);
      },
    });
    wss.once('error', reject);
    wss.once('listening', () => {
      wss.off('error', reject);
      wss.on('error', () => {});
      resolvePromise(wss);
    });
    wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      socket.on('error', () => {});
      if (!(path in FINISH)) {
        socket.close(1008, 'unknown path');
        return;
      }
      const idle = setTimeout(() => socket.close(1000, FINISH[path]), IDLE_MS);
      socket.once('close', () => clearTimeout(idle));
      socket.once('message', (data) => answer(path, socket, data.toString()));
    });
  });
}
