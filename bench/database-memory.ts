// Memory of GET /api/database's file, before and after streaming it (docs/worker.md): the
// Worker's build on SQLite WASM, run here under Node on the same WASM module, for the store of
// test/worker/database.test.ts (20,000 books with 200-character intros). Each way runs in a
// fresh process, so each starts from the same WASM heap. Measured: the WASM heap's size (its
// memory only grows, so its size after the download is its peak), the bytes held in JS at
// once, and the process's peak RSS (VmHWM) beside the same process that only built the store.
//   node dist/bench/database-memory.js            # both ways, one process each
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDatabaseImage, type DatabaseImage } from '../src/engine/drivers/wasm-modules.js';
import { useNodeDrivers } from '../src/engine/drivers/index.js';
import { loadSqliteWasm } from '../src/engine/drivers/wasm/load.js';
import { openStore } from '../src/store/open.js';
import { storeImage } from '../src/worker/database-file.js';
import { vmHwm } from './memory.js';
import { benchFiles } from './files.js';

type Sqlite3 = Awaited<ReturnType<typeof loadSqliteWasm>>;
const PIECE = 256 * 1024;

/** The way before: built in a `:memory:` database, then copied out whole (sqlite3_js_db_export). */
function whole(sqlite3: Sqlite3, image: DatabaseImage): Uint8Array {
  const out = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    out.exec('BEGIN');
    for (const o of image.objects()) {
      out.exec(o.sql);
      if (o.type !== 'table') continue;
      for (const row of image.rows(o.name)) out.exec({ sql: `INSERT INTO "${o.name}" VALUES (${row.map(() => '?').join(', ')})`, bind: row as never });
    }
    out.exec('COMMIT');
    return sqlite3.capi.sqlite3_js_db_export(out.pointer!);
  } finally {
    out.close();
  }
}

async function measure(way: 'before' | 'after'): Promise<void> {
  useNodeDrivers();
  const dir = mkdtempSync(join(benchFiles(), 'legado-dbmem-'));
  try {
    const store = openStore(join(dir, 's.db'), { schema: 75 });
    store.tables.books.insertMany(
      Array.from({ length: 20_000 }, (_, i) => ({
        bookUrl: `https://book.example/${i}`,
        origin: 'https://source.example',
        name: `书名${i}`,
        author: `作者${i % 97}`,
        intro: `第${i}本：${'简介文字'.repeat(50)}`,
      })),
    );
    const sqlite3 = await loadSqliteWasm();
    const heapBefore = sqlite3.wasm.heap8u().byteLength;
    const rssBefore = vmHwm() ?? 0;
    let size = 0;
    let jsAtOnce = 0;
    if (way === 'before') {
      const bytes = whole(sqlite3, storeImage(store));
      size = jsAtOnce = bytes.byteLength;
    } else {
      const file = buildDatabaseImage(sqlite3, storeImage(store));
      size = file.size;
      for (let at = 0; at < size; at += PIECE) jsAtOnce = Math.max(jsAtOnce, file.read(at, PIECE).byteLength);
      file.close();
    }
    const mb = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;
    console.log(
      `${way}: file ${mb(size)}; WASM heap ${mb(heapBefore)} -> ${mb(sqlite3.wasm.heap8u().byteLength)}; in JS at once ${mb(jsAtOnce)}; peak RSS ${mb(rssBefore)} -> ${mb(vmHwm() ?? 0)}`,
    );
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const way = process.argv[2];
if (way === 'before' || way === 'after') await measure(way);
else for (const w of ['before', 'after']) process.stdout.write(execFileSync(process.execPath, [fileURLToPath(import.meta.url), w], { encoding: 'utf8' }));
