// Where the corpus tier (npm run test:corpus) finds ../shared beside the repository. Its tests
// fail, never skip, when it is not there: CI runs this tier with ../shared in place.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
