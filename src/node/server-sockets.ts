// The WebSocket server on port + 1 (the front-end always connects there): /searchBook,
// /bookSourceDebug and /rssSourceDebug need the rule engine, so each answers a message in the
// app's form, saying so, then closes normally with the app's closing reason. Never a hang.
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { NO_ENGINE } from '../server/context.js';

/** Each path's closing reason, as the app's sockets give it. */
const FINISH: Readonly<Record<string, string>> = {
  '/searchBook': 'Search finish',
  '/bookSourceDebug': '调试结束',
  '/rssSourceDebug': '调试结束',
};
const NOT_JSON = '数据必须为Json格式';
const EMPTY = '不能为空';
/** A socket that sends nothing is closed after this long. */
const IDLE_MS = 60_000;

function answer(path: string, socket: WebSocket, text: string): void {
  const finish = FINISH[path]!;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    message = undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    socket.send(NOT_JSON);
  } else {
    const m = message as Record<string, unknown>;
    const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
    if (path === '/searchBook' ? blank(m.key) : blank(m.tag) || blank(m.key)) socket.send(EMPTY);
    else socket.send(NO_ENGINE);
  }
  socket.close(1000, finish);
}

export function startSockets(host: string, port: number): Promise<WebSocketServer> {
  return new Promise((resolvePromise, reject) => {
    const wss = new WebSocketServer({ host, port, maxPayload: 1 << 20 });
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
