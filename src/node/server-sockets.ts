// The WebSocket server on port + 1 (the front-end always connects there): /searchBook,
// /bookSourceDebug and /rssSourceDebug need the rule engine, so each answers a message in the
// app's form, saying so, then closes normally with the app's closing reason. Never a hang.
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { SOCKET_FINISH as FINISH, socketReply } from '../server/socket-answer.js';

/** A socket that sends nothing is closed after this long. */
const IDLE_MS = 60_000;

function answer(path: string, socket: WebSocket, text: string): void {
  socket.send(socketReply(path, text));
  socket.close(1000, FINISH[path]!);
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
