// Temporary directories and byte-level snapshots for tests that look at files directly.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** A fresh directory, removed when the test file finishes. */
export function tempDir(prefix = 'legado-store-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** SHA-256 of a file and of its -wal/-shm/-journal companions, to prove a file was not touched. */
export function snapshot(path: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const p = path + suffix;
    out[suffix || 'main'] = existsSync(p) ? createHash('sha256').update(readFileSync(p)).digest('hex') : null;
  }
  return out;
}
