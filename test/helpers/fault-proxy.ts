// A small real HTTP proxy in front of a real WebDAV server, for the faults a server cannot be told
// to produce: it answers some requests itself (503, 404) or cuts a response in the middle, and
// passes everything else through unchanged. It also counts the requests it sees.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What to do with one request: pass it on, answer it, or pass it and cut the body after `bytes`. */
export type Fault = 'pass' | { status: number; headers?: Record<string, string> } | { cutAfter: number };

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
}

export interface FaultProxy {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, rule: (req: SeenRequest, seen: readonly SeenRequest[]) => Fault): Promise<FaultProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const r: SeenRequest = { method: req.method ?? 'GET', path: decodeURIComponent(req.url ?? '/') };
    seen.push(r);
    const fault = rule(r, seen);
    if (typeof fault === 'object' && 'status' in fault) {
      req.resume();
      res.writeHead(fault.status, { 'Content-Length': '0', ...fault.headers }).end();
      return;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (fault === 'pass') {
        answer.pipe(res);
        return;
      }
      let sent = 0;
      answer.on('data', (chunk: Buffer) => {
        if (sent >= fault.cutAfter) return;
        const part = chunk.subarray(0, fault.cutAfter - sent);
        sent += part.length;
        res.write(part);
        // The connection goes down with the body half sent.
        if (sent >= fault.cutAfter) res.socket?.destroy();
      });
    });
    out.on('error', () => res.socket?.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
