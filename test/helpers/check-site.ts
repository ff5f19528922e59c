// What the `sources check` suites share: the fixture site on 127.0.0.1 with a sandbox and a host
// (closed after the file), its api source and variants of it, the slow safety source, and a
// store holding sources as the app's rows hold them (rule objects as JSON text).
import { after } from 'node:test';
import { join } from 'node:path';
import { openStore, type Store } from 'legado-store';
import { startFixtureSite } from './fixture-site/node.js';
import { fixtureSources, safetySources, type BookSourceJson, type FixtureSource } from './fixture-site/index.js';
import { fixtureHost } from './source-flows.js';
import { QuickJsEngine } from '../../src/sources/js/index.js';

export async function checkSite(seed: number) {
  const site = await startFixtureSite(seed);
  const js = new QuickJsEngine({ lanes: 1 });
  after(async () => {
    js.dispose();
    await site.close();
  });
  const all = fixtureSources(site.url, seed);
  const api = all.find((f) => f.id === 'api') as FixtureSource;
  return {
    site,
    model: site.site.model,
    host: fixtureHost({ js }),
    all,
    api,
    /** The api source under another URL, with fields changed. */
    variant: (tag: string, fields: Partial<BookSourceJson>): BookSourceJson => ({
      ...api.source,
      bookSourceUrl: `${api.source.bookSourceUrl}-${tag}`,
      ...fields,
    }),
    /** A source whose search answers after ten minutes. */
    slow: safetySources(site.url).find((s) => s.bookSourceUrl.endsWith('safety-slow')) as BookSourceJson,
  };
}

/** A new store at `dir/name` holding these sources as rows. */
export function storeWithSources(dir: string, name: string, sources: readonly BookSourceJson[]): string {
  const path = join(dir, name);
  const store = openStore(path) as Store<62>;
  try {
    for (const s of sources) {
      const row: Record<string, unknown> = { ...s };
      for (const k of ['ruleSearch', 'ruleExplore', 'ruleBookInfo', 'ruleToc', 'ruleContent'] as const) if (s[k]) row[k] = JSON.stringify(s[k]);
      store.tables.book_sources.insert(row as never);
    }
  } finally {
    store.close();
  }
  return path;
}

/** The request a URL makes as the site counts it (`site.hits` keys). */
export const requestOf = (url: string): string => {
  const u = new URL(url);
  return `GET ${u.pathname}${u.search}`;
};
