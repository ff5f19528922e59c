// Zips for tests, written with the project's own zip writer (and read back with its reader).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileAccess } from '../../src/backup/node-io.js';
import { MemorySink } from '../../src/backup/source.js';
import { ZipReader, ZipWriter } from '../../src/backup/zip.js';

/** Writes a zip of the given files (name in the archive → file on disk, or its content). */
export async function writeZip(out: string, files: readonly { name: string; path?: string; data?: string | Uint8Array }[]): Promise<void> {
  writeFileSync(out, zipBytes(files));
}

export function zipBytes(files: readonly { name: string; path?: string; data?: string | Uint8Array }[]): Uint8Array {
  const sink = new MemorySink();
  const zip = new ZipWriter(sink);
  for (const f of files) {
    const w = zip.file(f.name);
    const data = f.path !== undefined ? readFileSync(f.path) : typeof f.data === 'string' ? new TextEncoder().encode(f.data) : (f.data ?? new Uint8Array());
    w.write(data);
    w.end();
  }
  zip.end();
  return sink.bytes();
}

/** The names of a zip's file entries. */
export function zipNames(path: string): string[] {
  const zip = new ZipReader(fileAccess(path));
  try {
    return zip.entries.filter((e) => !e.isDirectory).map((e) => e.name);
  } finally {
    zip.close();
  }
}

/** An entry's content as text. */
export function zipText(path: string, name: string): string {
  const zip = new ZipReader(fileAccess(path));
  try {
    const e = zip.entries.find((x) => x.name === name);
    if (!e) throw new Error(`no ${name} in ${path}`);
    const parts: Uint8Array[] = [];
    for (const c of zip.source(e).chunks()) parts.push(c.slice());
    return Buffer.concat(parts).toString('utf8');
  } finally {
    zip.close();
  }
}
