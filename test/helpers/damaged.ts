// A store with a damaged page in the middle of book_sources, beside an intact copy of it.
import './engine.js'; // Node's engines, as the package's entry installs them
import { closeSync, copyFileSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { source } from './builders.js';

/** Writes `<name>.db` (3000 sources, page 60 overwritten) and `<name>-intact.db`; returns both paths. */
export function damagedStore(dir: string, name: string): { damaged: string; intact: string } {
  const damaged = join(dir, `${name}.db`);
  const s = openStore(damaged, { schema: 62 });
  s.transaction(() => {
    for (let i = 0; i < 3000; i++) {
      s.tables.book_sources.insert(source(`https://s${i}`, { bookSourceName: `S${i}${'x'.repeat(200)}`, respondTime: 0 }));
    }
  });
  s.close();
  const intact = join(dir, `${name}-intact.db`);
  copyFileSync(damaged, intact);
  const fd = openSync(damaged, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, 4096 * 60);
  closeSync(fd);
  return { damaged, intact };
}
