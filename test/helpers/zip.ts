// Zips for tests, written with the project's own zip writer (and read back with its reader).
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import { fileAccess } from '../../src/fs/byte-sources.js';
import { MemorySink } from '../../src/backup/byte-source.js';
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

/**
 * A zip of entries deflated with node:zlib, headers written here: fast enough for the hundreds of
 * MiB a bomb needs.
 */
export function bombZip(entries: readonly { name: string; data: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(e.data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const cdSize = central.reduce((n, p) => n + p.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** A JSON array of one book source whose comment is `bytes` of one character. */
export function hugeRecord(bytes: number): Buffer {
  const head = Buffer.from('[{"bookSourceUrl":"https://huge","bookSourceName":"H","bookSourceComment":"');
  const tail = Buffer.from('"}]');
  const out = Buffer.alloc(head.length + bytes + tail.length, 0x61);
  head.copy(out, 0);
  tail.copy(out, out.length - tail.length);
  return out;
}
