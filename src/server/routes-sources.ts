// Book sources and RSS sources (BookSourceController.kt, RssSourceController.kt): the two
// differ in table, key field and messages only, written once here as a parameter.
import type { Routes } from './app.js';
import type { RouteContext } from './context.js';
import { entityFrom, isObject, parseJson, readEntities, readEntity, toEntity } from './entities.js';
import { fail, ok } from './envelope.js';

interface Kind {
  readonly table: 'book_sources' | 'rssSources';
  readonly name: string;
  readonly url: string;
  readonly paths: { list: string; one: string; save: string; saves: string; del: string };
  readonly messages: {
    empty: string;
    noUrl: string;
    notFound: string;
    /** saveSources with no body. */
    savesNoBody: string;
    /** deleteSources: with no body (null: parsed like any other text), and when the text is no list (null: ignored). */
    delNoBody: string | null;
    delBadList: string | null;
  };
}

const BOOK: Kind = {
  table: 'book_sources',
  name: 'bookSourceName',
  url: 'bookSourceUrl',
  paths: { list: '/getBookSources', one: '/getBookSource', save: '/saveBookSource', saves: '/saveBookSources', del: '/deleteBookSources' },
  messages: {
    empty: '设备源列表为空',
    noUrl: '参数url不能为空，请指定源地址',
    notFound: '未找到源，请检查书源地址',
    savesNoBody: '数据为空',
    delNoBody: null,
    delBadList: '数据格式错误',
  },
};

const RSS: Kind = {
  table: 'rssSources',
  name: 'sourceName',
  url: 'sourceUrl',
  paths: { list: '/getRssSources', one: '/getRssSource', save: '/saveRssSource', saves: '/saveRssSources', del: '/deleteRssSources' },
  messages: {
    empty: '源列表为空',
    noUrl: '参数url不能为空，请指定书源地址',
    notFound: '未找到源，请检查源地址',
    savesNoBody: '数据不能为空',
    delNoBody: '没有传递数据',
    delBadList: null,
  },
};

export function sourceRoutes(routes: Routes, ctx: RouteContext): void {
  for (const kind of [BOOK, RSS]) sourcesOf(kind, routes, ctx);
}

function sourcesOf(kind: Kind, routes: Routes, { store }: RouteContext): void {
  const { table, messages: m, paths } = kind;
  const t = () => store.table(table);
  const area = () => (table === 'book_sources' ? store.bookSources : store.rssSources);
  const text = (row: Record<string, unknown>, field: string): string => (typeof row[field] === 'string' ? (row[field] as string) : '');
  const out = (row: object) => toEntity(store, table, row);

  routes.get(paths.list, () => {
    const all = area().all();
    return all.length === 0 ? fail(m.empty) : ok(all.map(out));
  });

  routes.get(paths.one, (req) => {
    const url = req.query('url');
    if (!url) return fail(m.noUrl);
    const row = t().get(url);
    return row ? ok(out(row)) : fail(m.notFound);
  });

  routes.post(paths.save, ({ body }) => {
    if (body === undefined) return fail('数据不能为空');
    const row = readEntity(store, table, body) as Record<string, unknown> | undefined;
    if (!row) return fail('转换源失败');
    if (text(row, kind.name) === '' || text(row, kind.url) === '') return fail('源名称和URL不能为空');
    t().upsert(row);
    return ok('');
  });

  routes.post(paths.saves, ({ body }) => {
    if (body === undefined) return fail(m.savesNoBody);
    const list = parseJson(body);
    if (!Array.isArray(list) || list.length === 0) return fail('转换源失败');
    // Only sources with a name and a URL that are not blank; the answer lists them as stored.
    const given = list.filter((r) => isObject(r) && text(r, kind.name).trim() !== '' && text(r, kind.url).trim() !== '');
    const kept = given.map((r) => entityFrom(store, table, r) as Record<string, unknown> | undefined);
    if (kept.some((r) => r === undefined)) return fail('转换源失败');
    const saved = store.transaction(() => kept.map((r) => t().get(t().upsert(r!))!));
    return ok(saved.map(out));
  });

  routes.post(paths.del, ({ body }) => {
    if (body === undefined && m.delNoBody !== null) return fail(m.delNoBody);
    const rows = readEntities(store, table, body) as Record<string, unknown>[] | undefined;
    if (!rows) {
      if (m.delBadList !== null) return fail(m.delBadList);
      return ok('已执行');
    }
    area().remove(rows.map((r) => text(r, kind.url)));
    return ok('已执行');
  });
}
