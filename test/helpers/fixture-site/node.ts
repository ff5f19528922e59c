// The fixture site on 127.0.0.1 (port 0) through @hono/node-server, for tests and benchmarks on Node.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { fixtureSite, type Site, type SiteOptions } from './site.js';

export interface RunningSite {
  /** The base URL, `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly site: Site;
  close(): Promise<void>;
}

export interface RunningSiteOptions extends SiteOptions {
  /** Time each answer waits before it starts (ms), as a remote site's round trip would (benchmarks). */
  readonly latencyMs?: number;
}

export async function startFixtureSite(seed: number, options: RunningSiteOptions = {}): Promise<RunningSite> {
  const site = fixtureSite(seed, options);
  const latency = options.latencyMs ?? 0;
  const answer = latency > 0 ? (req: Request) => new Promise<Response>((ok) => setTimeout(() => ok(site(req)), latency)) : (req: Request) => site(req);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: answer, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    site,
    close: () =>
      new Promise<void>((resolve) => {
        site.dispose();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
