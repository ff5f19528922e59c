// A test Worker (run by wrangler dev from test/worker/engine.test.ts): each request runs one
// check the engine suites themselves (test/worker/suites.test.ts) do not have, inside a Durable
// Object of its own (`?object=<name>`), on the Durable
// Object driver, and answers what it observed as JSON. The tests assert in Node against the
// app's values, spelled out there; an exception comes back as { error, code, name }.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { DurableStorageLike } from '../../src/engine/drivers/durable-object.js';
import { durableObjectDriver, VERSION_KEY } from '../../src/engine/drivers/durable-object.js';
import { openDurableStore, upgradeDurableStore, versionOfHash } from '../../src/worker/durable-store.js';
import { exportBackupZip } from '../../src/backup/export.js';
import { importBytesSync } from '../../src/backup/import.js';
import type { SchemaVersion } from '../../src/schema/index.js';
import type { Store } from '../../src/store/store.js';
import { inspectFile, openStore } from '../../src/store/open.js';

interface State {
  readonly storage: DurableStorageLike & { kv: { delete(key: string): boolean } };
}

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return String((e as { code?: string }).code ?? (e as Error).name);
  }
};

type Check = (state: State, url: URL) => unknown;

const CHECKS: Readonly<Record<string, Check>> = {
  /** The seam itself on the raw connection. */
  seam(state) {
    const db = durableObjectDriver(state.storage, versionOfHash).open('x');
    db.exec(
      'CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE); CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id), data BLOB)',
    );
    const insert = db.prepare('INSERT INTO p (id, name) VALUES (?, ?)');
    const first = insert.run(1, 'one');
    const named = db.prepare('INSERT INTO p (id, name) VALUES (@id, :name)').run({ id: 2, name: 'two' });
    db.prepare('INSERT INTO c (id, p, data) VALUES (?, ?, ?)').run(10, 1, new Uint8Array([0, 1, 255]));
    const blob = db.prepare('SELECT data FROM c WHERE id = 10').pluck().get() as Uint8Array;
    const inner = db.transaction(() => {
      insert.run(4, 'four');
      throw new Error('inner fails');
    });
    let inside = false;
    db.transaction(() => {
      insert.run(3, 'three');
      inside = db.inTransaction;
      try {
        inner();
      } catch {
        /* the savepoint's rows go, the outer's stay */
      }
    })();
    try {
      db.transaction(() => {
        insert.run(5, 'five');
        throw new Error('outer fails');
      }).immediate();
    } catch {
      /* nothing of it stays */
    }
    return {
      first: { changes: first.changes, lastInsertRowid: first.lastInsertRowid },
      named: { changes: named.changes, lastInsertRowid: Number(named.lastInsertRowid) },
      ids: db.prepare('SELECT id FROM p ORDER BY id').pluck().all(),
      objects: db.prepare('SELECT id, name FROM p WHERE id <= ? ORDER BY id').all(2),
      raw: db.prepare('SELECT id, name FROM p ORDER BY id').raw().all(),
      iterate: [...db.prepare('SELECT name FROM p ORDER BY id DESC').pluck().iterate()],
      bigint: typeof db.prepare('SELECT 7').pluck().safeIntegers().get(),
      blob: blob instanceof Uint8Array ? [...blob] : String(blob),
      inside,
      outside: db.inTransaction,
      readonly: [db.prepare('SELECT 1').readonly, insert.readonly],
      errors: {
        unique: codeOf(() => insert.run(9, 'one')),
        primaryKey: codeOf(() => insert.run(1, 'uno')),
        notNull: codeOf(() => insert.run(9, null)),
        foreignKey: codeOf(() => db.prepare('INSERT INTO c (id, p) VALUES (11, 99)').run()),
        syntax: codeOf(() => db.prepare('SELEC 1').all()),
        begin: codeOf(() => db.exec('BEGIN')),
        tooManyParameters: codeOf(() => db.prepare(`SELECT ${Array(101).fill('?').join(', ')}`).all(...Array(101).fill(1))),
        twoStatements: codeOf(() => db.prepare('SELECT 1; SELECT 2')),
        // What capabilities.indexCheck says: the host refuses integrity_check of a table.
        indexCheck: codeOf(() => db.pragma('integrity_check("p")')),
      },
      userVersion: [db.pragma('user_version', { simple: true }), (db.pragma('user_version = 3'), db.pragma('user_version', { simple: true }))],
      capabilities: db.capabilities,
    };
  },

  /** openStore and inspectFile with the driver given (not openDurableStore): a new store, then the same one reopened. */
  'open-store'(state) {
    const driver = durableObjectDriver(state.storage, versionOfHash);
    const sizes = { before: driver.fileSize('s.db'), wal: driver.fileSize('s.db-wal') ?? 'none', journal: driver.fileSize('s.db-journal') ?? 'none' };
    const first = openStore('s.db', { driver, schema: 62 });
    first.tables.book_groups.upsert({ groupId: 8, groupName: '八', order: 1, show: true });
    first.close();
    const again = openStore('s.db', { driver });
    const out = {
      sizes: { ...sizes, after: (driver.fileSize('s.db') ?? 0) > 0 },
      version: again.version,
      group: again.tables.book_groups.get(8)?.groupName,
      inspected: inspectFile('s.db', { driver }).version,
    };
    again.close();
    return out;
  },

  /** A store: created at the version asked (default the newest), its version kept and read back. */
  version(state, url) {
    const asked = url.searchParams.get('schema');
    const store = openDurableStore(state.storage, asked ? { schema: Number(asked) as SchemaVersion } : {});
    const created = { version: store.version, kept: state.storage.kv.get(VERSION_KEY) };
    const again = openDurableStore(state.storage);
    state.storage.kv.delete(VERSION_KEY);
    const byHash = openDurableStore(state.storage);
    return {
      created,
      reopened: again.version,
      byHash: byHash.version,
      identityHash: state.storage.sql.exec('SELECT identity_hash FROM room_master_table WHERE id = 42').toArray()[0]?.identity_hash,
      tables: state.storage.sql
        .exec("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'")
        .toArray()[0]?.n,
      specialGroups: store.db.prepare('SELECT groupId FROM book_groups WHERE groupId < 0 ORDER BY groupId').pluck().all(),
    };
  },

  /**
   * What the domain suites do not run here: a group's bit cleared from books when it goes (their
   * case uses the 64th bit, past 2^53) and the cache's long-URL deletion past the 50-byte LIKE limit.
   */
  domain(state) {
    const store = openDurableStore(state.storage, { clock: () => 1_700_000_000_000 }) as Store<62>;
    const g1 = store.bookGroups.create('甲');
    const g2 = store.bookGroups.create('乙');
    store.books.save({ bookUrl: 'https://b/1', name: '三体', author: '刘慈欣', origin: 'local', originName: '', tocUrl: '' } as never);
    store.books.setGroups('https://b/1', BigInt(g1.groupId) | BigInt(g2.groupId));
    const long = `https://www.example-book-source.com/very/long/path/of/a/source/${'x'.repeat(40)}`;
    for (const key of [
      `v_${long}_token`,
      `v_${long.toUpperCase()}_k`,
      `vX${long}Yz`,
      `v_${long}`,
      `userInfo_${long}`,
      `loginHeader_${long}`,
      `sourceVariable_${long}`,
      'v_other_k',
      'keep',
    ])
      store.cache.put(key, '1');
    const removed = store.cache.deleteSourceVariables(long);
    const deletedGroup = store.bookGroups.delete(g2.groupId);
    return {
      groups: [String(g1.groupId), String(g2.groupId)],
      groupAfterDelete: String(store.db.prepare("SELECT `group` FROM books WHERE bookUrl = 'https://b/1'").pluck().safeIntegers().get()),
      deletedGroup,
      removed,
      cacheLeft: store.db.prepare('SELECT key FROM caches ORDER BY key').pluck().all(),
    };
  },

  /** A store at 49 with a book and its chapters (the first half of the upgrade check). */
  'upgrade-setup'(state) {
    const old = openDurableStore(state.storage, { schema: 49 }) as Store<62>;
    old.db.prepare("INSERT INTO books (bookUrl, name, author, origin, type) VALUES ('https://b/u', '旧书', '某', 'local', 0)").run();
    for (let i = 0; i < 3; i++)
      old.db
        .prepare("INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES (?, ?, 0, '', 'https://b/u', ?, 0, 0)")
        .run(`https://b/u/${i}`, `第${i}章`, i);
    // In the same request, after those writes, the object's implicit transaction is open: refused, nothing changed.
    let refused = '';
    try {
      upgradeDurableStore(state.storage, 75);
    } catch (e) {
      refused = (e as Error).name;
    }
    return { refused, version: openDurableStore(state.storage).version, chapters: old.db.prepare('SELECT count(*) FROM chapters').pluck().get() };
  },

  /** The app's upgrade chain on the object in a request of its own: 49 to 75, books rebuilt on the way. */
  upgrade(state) {
    const summary = upgradeDurableStore(state.storage, 75);
    return { steps: summary?.steps.length, rebuilt: summary?.rebuiltTables.includes('books'), kept: state.storage.kv.get(VERSION_KEY) };
  },

  /** The upgraded store, opened in a later request: at 75, the book and its chapters kept, foreign keys on. */
  'upgrade-after'(state) {
    const store = openDurableStore(state.storage);
    return {
      version: store.version,
      identityHash: store.db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get(),
      book: store.db.prepare("SELECT name, type FROM books WHERE bookUrl = 'https://b/u'").get(),
      chapters: store.db.prepare("SELECT count(*) FROM chapters WHERE bookUrl = 'https://b/u'").pluck().get(),
      foreignKeys: store.db.pragma('foreign_keys', { simple: true }),
    };
  },

  /** A backup zip made here by hand imported, then exported again. */
  backup(state) {
    const store = openDurableStore(state.storage) as Store<62>;
    const zip = zipSync({
      'bookshelf.json': strToU8(
        JSON.stringify([
          {
            bookUrl: 'https://b/9',
            name: '书九',
            author: '某',
            origin: 'local',
            originName: '',
            tocUrl: '',
            durChapterIndex: 2,
            durChapterTime: 1000,
            canUpdate: true,
          },
        ]),
      ),
      'bookSource.json': strToU8(
        JSON.stringify(
          Array.from({ length: 120 }, (_, i) => ({ bookSourceUrl: `https://s/${i}`, bookSourceName: `源${i}`, bookSourceGroup: 'g', enabled: i % 2 === 0 })),
        ),
      ),
      'replaceRule.json': strToU8(JSON.stringify([{ id: 7, name: '去广告', pattern: 'ad', replacement: '', isEnabled: true, isRegex: false }])),
    });
    const result = importBytesSync(store, zip);
    const out = exportBackupZip(store);
    const files = unzipSync(out.bytes);
    const shelf = JSON.parse(strFromU8(files['bookshelf.json']!)) as { name: string; durChapterIndex: number }[];
    return {
      totals: result.totals,
      rows: {
        books: store.db.prepare('SELECT name, durChapterIndex FROM books').all(),
        sources: store.db.prepare('SELECT count(*) FROM book_sources').pluck().get(),
        enabled: store.db.prepare('SELECT count(*) FROM book_sources WHERE enabled = 1').pluck().get(),
        rules: store.db.prepare('SELECT id, name FROM replace_rules').all(),
      },
      exported: { shelf: shelf.map((b) => [b.name, b.durChapterIndex]), sources: (JSON.parse(strFromU8(files['bookSource.json']!)) as unknown[]).length },
    };
  },
};

export class Checks {
  constructor(private readonly state: State) {}

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const check = CHECKS[url.pathname.slice(1)];
    if (!check) return Response.json({ error: `no check ${url.pathname}` }, { status: 404 });
    try {
      const out = check(this.state, url);
      return new Response(
        JSON.stringify(out, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
        { headers: { 'content-type': 'application/json' } },
      );
    } catch (e) {
      const err = e as Error & { code?: string };
      return Response.json({ error: err.message, code: err.code ?? null, name: err.name, stack: err.stack }, { status: 500 });
    }
  }
}

interface Env {
  readonly CHECKS: { idFromName(name: string): unknown; get(id: unknown): { fetch(r: Request): Promise<Response> } };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const object = new URL(request.url).searchParams.get('object') ?? 'default';
    return env.CHECKS.get(env.CHECKS.idFromName(object)).fetch(request);
  },
};
