// The page's worker: it owns the library (a store in OPFS, which only a Worker can use) and
// answers the page's requests. It loads legado-store the way any app would: the built module.
import type * as Lib from '../../src/browser/index.js';
import type { BookView, LoadResult, Request, Response, SourceView, View } from './protocol.js';

const LIBRARY = 'library.db';
const libraryModule = '../browser/legado-store.js';
const loading = import(libraryModule) as Promise<typeof Lib>;
let store: Lib.Store<Lib.SchemaVersion> | undefined;

/** The library; a missing one is created at `schema` (the newest when left out: openStore's default). */
async function library(schema?: Lib.SchemaVersion): Promise<Lib.Store<Lib.SchemaVersion>> {
  const lib = await loading;
  store ??= await lib.openStore(LIBRARY, { driver: 'opfs', ...(schema === undefined ? {} : { schema }) });
  return store;
}

function view(lib: typeof Lib, s: Lib.Store<Lib.SchemaVersion>): View {
  const book = (b: Lib.Row<'books'>): BookView => ({
    name: b.name,
    author: b.author,
    chapter: b.durChapterTitle ?? null,
    at: b.totalChapterNum > 0 ? Math.min(b.durChapterIndex + 1, b.totalChapterNum) : 0,
    of: b.totalChapterNum,
    lastRead: b.durChapterTime,
  });
  const shelf = s.bookGroups.visible().map((g) => ({
    group: g.groupName,
    books: (s.books.shelf(g.groupId) as Lib.Row<'books'>[]).map(book),
  }));
  const source = (r: Lib.Row<'book_sources'>): SourceView => ({ name: r.bookSourceName, url: r.bookSourceUrl, enabled: r.enabled });
  const grouped = s.bookSources.groups().map((group) => ({ group, rows: s.bookSources.byGroup(group) as Lib.Row<'book_sources'>[] }));
  grouped.push({ group: '', rows: s.bookSources.noGroup() as Lib.Row<'book_sources'>[] });
  const sources = grouped
    .filter((g) => g.rows.length > 0)
    .map((g) => ({ group: g.group, enabled: g.rows.filter((r) => r.enabled).length, sources: g.rows.map(source) }));
  const sqlite = String(s.db.prepare('SELECT sqlite_version()').pluck().get());
  return {
    version: s.version,
    versions: lib.SUPPORTED_VERSIONS,
    newest: lib.NEWEST_VERSION,
    engine: `SQLite ${sqlite} (WASM, OPFS)`,
    shelf,
    sources,
    counts: s.counts(),
  };
}

const isDatabase = (bytes: Uint8Array): boolean => bytes.length >= 16 && new TextDecoder().decode(bytes.subarray(0, 15)) === 'SQLite format 3';

async function load(name: string, bytes: Uint8Array, replace: boolean): Promise<LoadResult> {
  const lib = await loading;
  const s = await library();
  if (!isDatabase(bytes)) {
    const report = await lib.importBackup(s, bytes, { name });
    // What was stored, and what could not be kept as given (skips by reason, fields dropped), as the CLI says it.
    return { kind: 'backup', summary: lib.importSummary(name, report).join('\n') };
  }
  const counts = s.counts();
  if (!replace && ((counts['books'] ?? 0) > 0 || (counts['book_sources'] ?? 0) > 0)) {
    return { kind: 'database', summary: '', needsConfirm: true };
  }
  s.close();
  store = undefined;
  try {
    store = await lib.openStoreFromBytes(bytes, { name: LIBRARY, driver: 'opfs', overwrite: true });
  } finally {
    await library();
  }
  return { kind: 'database', summary: `${name}: opened as the library (schema ${store.version})` };
}

async function handle(req: Request): Promise<unknown> {
  const lib = await loading;
  switch (req.op) {
    case 'view':
      return view(lib, await library());
    case 'load':
      return load(req.name, req.bytes, req.replace ?? false);
    case 'exportBackup':
      return lib.exportBackup(await library());
    case 'exportDatabase':
      return lib.exportDatabase(await library());
    case 'clear': {
      (await library()).close();
      store = undefined;
      await lib.deleteStore(LIBRARY, { driver: 'opfs' });
      const schema =
        req.schema !== undefined && lib.SUPPORTED_VERSIONS.includes(req.schema as Lib.SchemaVersion) ? (req.schema as Lib.SchemaVersion) : undefined;
      return view(lib, await library(schema));
    }
  }
}

const scope = self as unknown as { onmessage: (e: MessageEvent) => void; postMessage(m: Response, t?: Transferable[]): void };
// Requests run one at a time, in order: the store is synchronous and has one connection.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (e: MessageEvent) => {
  const { id, ...req } = e.data as Request & { id: number };
  queue = queue.then(async () => {
    try {
      const result = await handle(req as Request);
      scope.postMessage({ id, ok: true, result }, result instanceof Uint8Array ? [result.buffer] : []);
    } catch (err) {
      const x = err as { name?: string; code?: string; message?: string };
      scope.postMessage({ id, ok: false, error: { name: x.name ?? 'Error', code: x.code, message: x.message ?? String(err) } });
    }
  });
};
