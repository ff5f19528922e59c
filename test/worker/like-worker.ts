// A test Worker (run by wrangler dev from test/worker/like.test.ts): the store's LIKE searches
// with texts longer than a Durable Object's 50-byte pattern limit, on the Durable Object engine
// inside workerd, each request in an object of its own. It answers what it found; the test
// asserts against rows spelled out by hand.
import type { DurableStorageLike } from '../../src/engine/drivers/durable-object.js';
import { openDurableStore } from '../../src/worker/durable-store.js';
import type { Store } from '../../src/store/store.js';
import { source } from '../helpers/builders.js';

interface State {
  readonly storage: DurableStorageLike;
}

/** What the test sends: the search text, the group and the source URL, with the rows to store. */
interface Input {
  readonly key: string;
  readonly books: string[];
  readonly group: string;
  readonly groups: string[];
  readonly url: string;
  readonly cacheKeys: string[];
}

function run(state: State, input: Input): unknown {
  const store = openDurableStore(state.storage, { clock: () => 1_700_000_000_000 }) as Store<62>;
  input.books.forEach((name, i) => store.tables.books.insert({ bookUrl: `b${i}`, origin: 'local', name, author: 'A' }));
  input.books.forEach((title, i) =>
    store.tables.chapters.insert({ bookUrl: 'b0', url: `c${i}`, title, index: i, isVolume: false, baseUrl: '', isVip: false, isPay: false }),
  );
  input.groups.forEach((g, i) => store.tables.book_sources.insert(source(`s${i}`, { bookSourceGroup: g, customOrder: i, respondTime: 0 })));
  for (const k of input.cacheKeys) store.cache.put(k, '1');
  // The engine itself refuses the long pattern as LIKE: what the rewritten terms avoid.
  let refused = 'no error';
  try {
    store.db.prepare('SELECT count(*) FROM books WHERE name LIKE ?').pluck().get(`%${input.key}%`);
  } catch (e) {
    refused = (e as Error).message;
  }
  return {
    capability: store.db.capabilities.maxLikePatternBytes,
    refused,
    books: store.books.search(input.key).map((b) => b.bookUrl),
    chapters: store.chapters.search('b0', input.key).map((c) => c.url),
    prefix: store.tables.books.list({ where: { name: { like: `${input.key.replace(/[%_\\]/g, '_')}%` } }, orderBy: 'bookUrl' }).map((b) => b.bookUrl),
    byGroup: store.bookSources.byGroup(input.group).map((s) => s.bookSourceUrl),
    sourceSearch: store.bookSources.search(input.group).map((s) => s.bookSourceUrl),
    removed: store.cache.deleteSourceVariables(input.url),
    cacheLeft: store.db.prepare('SELECT key FROM caches ORDER BY key').pluck().all(),
  };
}

export class LikeChecks {
  constructor(private readonly state: State) {}

  async fetch(request: Request): Promise<Response> {
    try {
      return Response.json(run(this.state, (await request.json()) as Input));
    } catch (e) {
      const err = e as Error & { code?: string };
      return Response.json({ error: err.message, code: err.code ?? null, name: err.name, stack: err.stack }, { status: 500 });
    }
  }
}

interface Env {
  readonly LIKE: { idFromName(name: string): unknown; get(id: unknown): { fetch(r: Request): Promise<Response> } };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const object = new URL(request.url).searchParams.get('object') ?? 'default';
    return env.LIKE.get(env.LIKE.idFromName(object)).fetch(request);
  },
};
