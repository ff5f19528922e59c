// A test Worker (run by wrangler dev from test/worker/sources.test.ts): the book-source engine
// inside workerd, no nodejs_compat. `openSource` gets the fixture site (the same pure function
// the Node tests serve) as its fetch, QuickJS with the .wasm imported as a module, and maps as
// its storage; no request leaves the Worker. It answers what the flows found, or the typed error
// and the URLs the fetch was asked for; the test compares with the site's model.
import quickjsWasm from '@jitl/quickjs-wasmfile-release-asyncify/wasm';
import type { HostFetch } from '../../src/net/fetch.js';
import { openSource } from '../../src/sources/engine/session.js';
import type { EngineHost } from '../../src/sources/engine/types.js';
import { QuickJsEngine } from '../../src/sources/js/index.js';
import { fixtureSite } from '../helpers/fixture-site/site.js';
import { fixtureSources } from '../helpers/fixture-site/sources.js';
import { ENGINE_BASE as BASE, SEED } from './fixture-site-seed.js';
import { memoryStorage } from './memory-storage.js';

const NOW = 1_700_000_000_000;

const site = fixtureSite(SEED);
const js = new QuickJsEngine({ lanes: 1, wasmModule: quickjsWasm });

interface Input {
  /** A fixture source's id, or `private` for a source aimed at 10.0.0.1. */
  readonly id: string;
  readonly keyword: string;
  /** The source's header as a script: run while the TOC script waits in java.ajax (a nested script). */
  readonly jsHeader?: string;
}

function hostWith(calls: string[]): EngineHost {
  const fetch: HostFetch = (url, init) => {
    calls.push(url);
    return site(new Request(url, init));
  };
  return { fetch, js, storage: memoryStorage(), now: () => NOW, timeoutMs: 20_000 };
}

async function flows(input: Input, calls: string[]): Promise<unknown> {
  if (input.id === 'private') {
    const source = { bookSourceUrl: 'http://10.0.0.1', bookSourceName: 'private', searchUrl: '/search?q={{key}}', ruleSearch: { bookList: 'li' } };
    return { hits: await openSource(source, hostWith(calls)).search(input.keyword) };
  }
  const f = fixtureSources(BASE, SEED).find((x) => x.id === input.id);
  if (!f) throw new Error(`no fixture source ${input.id}`);
  const source = input.jsHeader ? { ...f.source, header: input.jsHeader } : f.source;
  const engine = openSource(source, hostWith(calls));
  const hits = await engine.search(input.keyword);
  const book = await engine.bookInfo(hits[0]!);
  const toc = await engine.toc(book);
  const readable = toc.filter((c) => !c.isVolume);
  const texts: string[] = [];
  for (let i = 0; i < 2; i++) texts.push(await engine.content(book, readable[i]!, readable[i + 1]?.url));
  const chapters = toc.map((c) => ({ ...c, url: c.isVolume ? c.url : new URL(c.url, c.baseUrl).href }));
  return { hits, book, toc: chapters, texts };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const input = (await request.json()) as Input;
    const calls: string[] = [];
    try {
      return Response.json({ ...((await flows(input, calls)) as object), calls });
    } catch (e) {
      const err = e as Error & { code?: string; reason?: string; cause?: { reason?: string } };
      return Response.json({ error: { name: err.name, code: err.code ?? null, reason: err.reason ?? err.cause?.reason ?? null, message: err.message }, calls });
    }
  },
};
