// Where the corpus tier (npm run test:corpus) finds ../shared beside the repository. Its tests
// fail, never skip, when it is not there: CI runs this tier with ../shared in place.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** <repo>/../shared (this file runs from <repo>/dist/test/corpus). */
export const SHARED = fileURLToPath(new URL('../../../../shared/', import.meta.url));

/** A path inside ../shared, asserted to exist, with a message that says where it was looked for. */
export function shared(...parts: string[]): string {
  const path = join(SHARED, ...parts);
  assert.ok(existsSync(path), `${path} is missing: the corpus tier reads ../shared beside the repository (npm test needs none of it)`);
  return path;
}

/** The corpora folder, checked by its README. */
export function corpora(): string {
  shared('corpora', 'README.md');
  return join(SHARED, 'corpora');
}

/** The book-source files: every booksources-* collection, the default data and the backups' source files. */
export function bookSourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(root).sort()) {
    if (dir.startsWith('booksources-')) for (const f of readdirSync(join(root, dir)).sort()) if (f.endsWith('.json')) out.push(join(dir, f));
    if (dir.startsWith('backup-'))
      for (const f of ['bookSource.json', 'myBookSource.json']) if (readdirSync(join(root, dir)).includes(f)) out.push(join(dir, f));
  }
  out.push(join('legado-defaultData', 'bookSources.json'));
  return out;
}
