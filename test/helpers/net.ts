// For the network-policy tests: a server on a loopback address that records every request it
// gets (so "refused" is seen as "never reached"), and the error a promise rejects with.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after } from 'node:test';

export interface CountingServer {
  readonly port: number;
  /** `http://host:port`, brackets around an IPv6 host. */
  readonly origin: string;
  /** The path of each request received, in order. */
  readonly hits: string[];
}

/** A server on `host` (port 0) answering with `handle`, closed after the file's tests. */
export async function countingServer(host: string, handle: (req: IncomingMessage, res: ServerResponse, self: CountingServer) => void): Promise<CountingServer> {
  const hits: string[] = [];
  let self: CountingServer | undefined;
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handle(req, res, self!);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as { port: number }).port;
  self = { port, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, hits };
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return self;
}

/** The error `p` rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('resolved where an error was expected');
}
