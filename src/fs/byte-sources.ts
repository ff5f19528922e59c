// The Node side of the byte sources (backup/byte-source.ts): files read a chunk at a time, and random
// access to a zip on disk. Only the path-based entry points (backup-import.ts, backup-export.ts)
// import this module; the in-memory pipeline never does.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { CHUNK_SIZE, type ByteSource, type RandomAccess } from '../backup/byte-source.js';
import { hasSqliteHeader } from '../engine/traceless-read.js';

export function fileSource(path: string, name = path, chunkSize = CHUNK_SIZE): ByteSource {
  return {
    name,
    get size() {
      return fileSize(path);
    },
    *chunks() {
      const fd = openSync(path, 'r');
      try {
        const buf = Buffer.allocUnsafe(chunkSize);
        for (;;) {
          const n = readSync(fd, buf, 0, buf.length, null);
          if (n === 0) return;
          yield buf.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Random access to a file, open until `close`. */
export function fileAccess(path: string): RandomAccess {
  const fd = openSync(path, 'r');
  let open = true;
  return {
    name: path,
    size: fstatSync(fd).size,
    read(offset, length) {
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      return buf.subarray(0, got);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

export function fileSize(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** The first bytes of a file (fewer when it is shorter). */
export function fileHead(path: string, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(length);
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * True when the path is a file that begins with SQLite's header: an input the user named on this
 * machine's disk, read here whatever engine the store runs on (the engine's own storage may not
 * be this file system).
 */
export function isSqliteFileOnDisk(path: string): boolean {
  try {
    return statSync(path).isFile() && hasSqliteHeader(fileHead(path, 16));
  } catch {
    return false;
  }
}
