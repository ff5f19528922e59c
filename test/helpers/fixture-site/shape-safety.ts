// Pages for the network-safety tests: slow, trickling, huge, redirect loops, and redirects to
// addresses a fetcher must refuse by default. Timers are tracked so closing the site ends them.
import { htmlPage, num, redirect, type Ctx } from './page.js';

export const PRIVATE_TARGETS: Readonly<Record<string, (port: string) => string>> = {
  loopback: (port) => `http://127.0.0.1:${port}/gbk/`,
  'loopback-v6': (port) => `http://[::1]:${port}/gbk/`,
  localhost: (port) => `http://localhost:${port}/gbk/`,
  private: () => 'http://10.0.0.1/gbk/',
  'private-192': () => 'http://192.168.1.1/',
  metadata: () => 'http://169.254.169.254/latest/meta-data/',
};

/** Pending timers, so `dispose()` can end every slow answer when the site closes. */
export class Timers {
  private readonly pending = new Set<{ id: ReturnType<typeof setTimeout>; done: () => void }>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { id: setTimeout(() => (this.pending.delete(entry), resolve()), ms), done: resolve };
      this.pending.add(entry);
    });
  }

  dispose(): void {
    for (const e of this.pending) clearTimeout(e.id), e.done();
    this.pending.clear();
  }
}

const FILLER = new TextEncoder().encode(`<p>${'填充内容'.repeat(256)}</p>\n`);

/** A body of about `bytes` bytes, made as it is read (a reader that stops reading costs nothing). */
function hugeBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(FILLER);
      sent += FILLER.length;
    },
  });
}

function trickle(timers: Timers, ms: number): ReadableStream<Uint8Array> {
  const end = Date.now() + ms;
  const dot = new TextEncoder().encode('.');
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('<html><body>'));
    },
    async pull(controller) {
      if (Date.now() >= end) return controller.close();
      await timers.sleep(100);
      controller.enqueue(dot);
    },
  });
}

export function safetyShape(timers: Timers): (ctx: Ctx) => Promise<Response | undefined> {
  return async (ctx) => {
    const { pathname: path, searchParams: q } = ctx.url;
    if (!path.startsWith('/safety/')) return undefined;
    const ms = num(q.get('ms'));
    if (path === '/safety/slow') {
      await timers.sleep(Number.isFinite(ms) ? ms : 60_000);
      return htmlPage('慢', '<p>终于到了</p>');
    }
    if (path === '/safety/trickle')
      return new Response(trickle(timers, Number.isFinite(ms) ? ms : 60_000), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    if (path === '/safety/huge') {
      const mb = num(q.get('mb'));
      return new Response(hugeBody((Number.isFinite(mb) ? mb : 32) * 1024 * 1024), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    }
    if (path === '/safety/loop') return redirect(ctx, `/safety/loop?n=${(num(q.get('n')) || 0) + 1}`);
    if (path === '/safety/ping') return redirect(ctx, '/safety/pong');
    if (path === '/safety/pong') return redirect(ctx, '/safety/ping');
    const m = /^\/safety\/to\/([\w-]+)$/.exec(path);
    const target = m && PRIVATE_TARGETS[m[1]!];
    if (target) return new Response(null, { status: 302, headers: { Location: target(ctx.url.port) } });
    return undefined;
  };
}
