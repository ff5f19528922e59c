// A -wal file as SQLite's recovery reads it: its header, and the frames up to the last commit
// whose salts and cumulative checksums hold (sqlite.org/fileformat2.html#walformat).
import { u32 } from './btree-page.js';
import type { DriverFiles } from './driver.js';

export interface WalPages {
  readonly pageSize: number;
  /** Page number → offset in the -wal of its last committed image. */
  readonly frames: ReadonlyMap<number, number>;
  /** The file's size in pages after the last commit. */
  readonly dbPages: number;
}

/** SQLite's WAL checksum over `b[from, to)`, continuing from `s` (big- or little-endian words, as the magic says). */
function checksum(b: Uint8Array, from: number, to: number, s: [number, number], bigEndian: boolean): void {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let [s0, s1] = s;
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + v.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + v.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  s[0] = s0;
  s[1] = s1;
}

/** The committed frames of a -wal, as SQLite's recovery reads them; undefined when it holds none (or no valid header). */
export function readWal(files: DriverFiles, walPath: string): WalPages | undefined {
  const fd = files.openRead(walPath);
  try {
    const size = fd.size;
    const header = new Uint8Array(32);
    if (size < 32 || fd.read(header, 0) !== 32) return undefined;
    const magic = u32(header, 0);
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
    const bigEndian = magic === 0x377f0683;
    const raw = u32(header, 8);
    const pageSize = raw === 1 ? 65536 : raw;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
    const s: [number, number] = [0, 0];
    checksum(header, 0, 24, s, bigEndian);
    if (s[0] !== u32(header, 24) || s[1] !== u32(header, 28)) return undefined;
    const salt1 = u32(header, 16);
    const salt2 = u32(header, 20);
    // Read 64 frames at a time: a read a frame was most of the time of a large -wal.
    const frameSize = 24 + pageSize;
    const chunk = new Uint8Array(frameSize * 64);
    let chunkAt = 32;
    let chunkBytes = 0;
    const frames = new Map<number, number>();
    const pending = new Map<number, number>();
    let dbPages = 0;
    for (let at = 32; at + frameSize <= size; at += frameSize) {
      if (at + frameSize > chunkAt + chunkBytes) {
        chunkAt = at;
        chunkBytes = fd.read(chunk, at);
        if (chunkBytes < frameSize) break;
      }
      const frame = chunk.subarray(at - chunkAt, at - chunkAt + frameSize);
      if (u32(frame, 8) !== salt1 || u32(frame, 12) !== salt2) break;
      checksum(frame, 0, 8, s, bigEndian);
      checksum(frame, 24, frameSize, s, bigEndian);
      if (s[0] !== u32(frame, 16) || s[1] !== u32(frame, 20)) break;
      pending.set(u32(frame, 0), at + 24);
      const commit = u32(frame, 4);
      if (commit !== 0) {
        for (const [p, o] of pending) frames.set(p, o);
        pending.clear();
        dbPages = commit;
      }
    }
    return frames.size === 0 ? undefined : { pageSize, frames, dbPages };
  } finally {
    fd.close();
  }
}
