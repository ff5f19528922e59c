// Zip archives, read and written in memory-bounded pieces, the same in Node and in a browser.
// fflate does the compression (streaming inflate and deflate, synchronous, so an import stays
// one SQLite transaction). fflate reads an archive's directory only while inflating every
// entry whole into memory, with no limit; so the directory (end record, zip64 records, central
// entries, local headers) is read here, and each entry is inflated as a stream whose expanded
// size is counted against limits: nothing is ever extracted to disk, and a zip bomb stops at
// the first chunk over a limit. Backups are flat; entries are matched by their base name.
import { Inflate, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { ArchiveLimitError, BadArchiveError } from './errors.js';
import { CHUNK_SIZE, type ByteSink, type ByteSource, type RandomAccess } from './byte-source.js';

export interface ZipLimits {
  /** Largest expanded size of one entry, in bytes. */
  readonly entryBytes: number;
  /** Largest expanded size of all entries read, in bytes. */
  readonly archiveBytes: number;
  /** Largest expanded/compressed ratio of an entry, for entries that expand past RATIO_FLOOR (64 MiB). */
  readonly ratio: number;
  /**
   * Largest JSON record (one element of a file's array) read from an entry, in bytes: a record is
   * held whole in memory, several times over while it is parsed, so this bounds the memory.
   */
  readonly recordBytes: number;
}

/** Generous: the largest real collection seen is 53 MB of JSON, compressing about 8:1. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = { entryBytes: 512 * 2 ** 20, archiveBytes: 2 ** 30, ratio: 100, recordBytes: 64 * 2 ** 20 };
/**
 * The ratio counts only for entries that expand past this: the store's own export of a field of
 * 10 MB of one repeated character compresses about 1000:1, and must import back. Below it the
 * memory is bounded by recordBytes and the time by the size; above it a ratio past the limit is
 * a bomb, refused from the directory before anything is inflated.
 */
export const RATIO_FLOOR = 64 * 2 ** 20;
const INFLATE_STEP = 8 * 1024;

export interface ZipEntry {
  /** The path in the archive. */
  readonly path: string;
  /** Its base name (what a backup's files are matched by). */
  readonly name: string;
  readonly isDirectory: boolean;
  readonly encrypted: boolean;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_LOCATOR64 = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
const utf8 = new TextDecoder('utf-8');

/** True when the bytes start like a zip archive (a local header, or the end record of an empty one). */
export function isZipSignature(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05);
}

const u16 = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number): number => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 2 ** 32;

/** An archive's directory, and its entries as streams within limits. */
export class ZipReader {
  readonly file: string;
  readonly entries: readonly ZipEntry[];
  private readonly access: RandomAccess;
  private readonly limits: ZipLimits;
  /** Largest expanded size seen per entry (an entry read twice counts once). */
  private readonly expanded = new Map<ZipEntry, number>();

  constructor(access: RandomAccess, limits: Partial<ZipLimits> = {}) {
    this.access = access;
    this.file = access.name;
    this.limits = { ...DEFAULT_ZIP_LIMITS, ...limits };
    this.entries = this.readDirectory();
  }

  private bad(problem: string, entry?: string): BadArchiveError {
    return new BadArchiveError(this.file, entry, problem);
  }

  private read(offset: number, length: number, what: string): Uint8Array {
    const b = offset >= 0 && offset + length <= this.access.size ? this.access.read(offset, length) : undefined;
    if (!b || b.length < length) throw this.bad(`unexpected end of archive reading ${what} (truncated?)`);
    return b;
  }

  private readDirectory(): ZipEntry[] {
    const size = this.access.size;
    const tailLength = Math.min(size, 22 + MAX_COMMENT);
    const tail = this.access.read(size - tailLength, tailLength);
    let at = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (u32(tail, i) === SIG_EOCD && i + 22 + u16(tail, i + 20) <= tail.length) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      throw this.bad(isZipSignature(this.access.read(0, 4)) ? 'no end of central directory: the archive is truncated' : 'not a zip archive');
    }
    const eocdOffset = size - tailLength + at;
    if (u16(tail, at + 4) !== 0 || u16(tail, at + 6) !== 0) throw this.bad('a multi-part (spanned) archive');
    let count = u16(tail, at + 10);
    let cdSize = u32(tail, at + 12);
    let cdOffset = u32(tail, at + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      const locator = this.read(eocdOffset - 20, 20, 'the zip64 locator');
      if (u32(locator, 0) !== SIG_LOCATOR64) throw this.bad('zip64 end record missing');
      const end64 = this.read(u64(locator, 8), 56, 'the zip64 end record');
      if (u32(end64, 0) !== SIG_EOCD64) throw this.bad('zip64 end record damaged');
      count = u64(end64, 32);
      cdSize = u64(end64, 40);
      cdOffset = u64(end64, 48);
    }
    if (cdOffset + cdSize > eocdOffset) throw this.bad('the central directory lies past its end record (truncated or damaged)');
    const cd = this.read(cdOffset, cdSize, 'the central directory');
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || u32(cd, p) !== SIG_CENTRAL) throw this.bad(`central directory entry ${i} damaged`);
      const flags = u16(cd, p + 8);
      const nameLength = u16(cd, p + 28);
      const extraLength = u16(cd, p + 30);
      const commentLength = u16(cd, p + 32);
      if (p + 46 + nameLength + extraLength + commentLength > cd.length) throw this.bad(`central directory entry ${i} damaged`);
      const path = utf8.decode(cd.subarray(p + 46, p + 46 + nameLength));
      let size = u32(cd, p + 24);
      let compressedSize = u32(cd, p + 20);
      let localOffset = u32(cd, p + 42);
      // zip64: the 64-bit values stand in an extra field, in this order, for each one at its maximum.
      for (let e = p + 46 + nameLength, end = e + extraLength; e + 4 <= end; e += 4 + u16(cd, e + 2)) {
        if (u16(cd, e) !== 0x0001) continue;
        let q = e + 4;
        if (size === 0xffffffff) (size = u64(cd, q)), (q += 8);
        if (compressedSize === 0xffffffff) (compressedSize = u64(cd, q)), (q += 8);
        if (localOffset === 0xffffffff) localOffset = u64(cd, q);
      }
      this.checkPath(path);
      const parts = path.split(/[/\\]/);
      entries.push({
        path,
        name: parts.filter(Boolean).pop() ?? path,
        isDirectory: path.endsWith('/') || path.endsWith('\\'),
        encrypted: (flags & 1) !== 0,
        method: u16(cd, p + 10),
        crc: u32(cd, p + 16),
        compressedSize,
        size,
        localOffset,
      });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  }

  /** The same rules as yauzl's: no absolute paths, no `..`, no backslashes, no NUL. */
  private checkPath(path: string): void {
    if (path.includes('\0')) throw this.bad('a NUL character in an entry name', JSON.stringify(path));
    if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw this.bad('absolute path', path);
    if (path.includes('\\')) throw this.bad('invalid characters in an entry name (a backslash)', path);
    if (path.split('/').includes('..')) throw this.bad('invalid relative path', path);
  }

  /**
   * Checks the entries an import will read against the limits by their declared sizes, before
   * any is inflated: a bomb is refused from its directory. Inflating never goes past a declared
   * size (BAD_ARCHIVE), so what is reserved here bounds what is expanded.
   */
  reserve(entries: readonly ZipEntry[]): void {
    let total = 0;
    for (const entry of entries) {
      this.charge(entry, entry.size, true);
      total += entry.size;
      if (total > this.limits.archiveBytes) throw this.overArchive(entry, total, 'declare');
    }
  }

  /** The entry's expanded bytes as a source that can be read again; limits apply to every read. */
  source(entry: ZipEntry, name = `${this.file}:${entry.path}`): ByteSource {
    const { recordBytes } = this.limits;
    return {
      name,
      size: entry.size,
      chunks: () => this.inflate(entry),
      recordLimit: {
        bytes: recordBytes,
        error: (bytes) =>
          new ArchiveLimitError(this.file, entry.path, 'recordBytes', bytes, `holds a record of more than ${recordBytes} bytes (the limit for one record)`),
      },
    };
  }

  private *inflate(entry: ZipEntry): Generator<Uint8Array> {
    if (entry.encrypted) throw this.bad('entry is encrypted', entry.path);
    if (entry.method !== 0 && entry.method !== 8) throw this.bad(`unsupported compression method ${entry.method}`, entry.path);
    this.charge(entry, entry.size, true);
    const local = this.read(entry.localOffset, 30, `the local header of ${entry.path}`);
    if (u32(local, 0) !== SIG_LOCAL) throw this.bad('local header damaged', entry.path);
    const start = entry.localOffset + 30 + u16(local, 26) + u16(local, 28);
    const end = start + entry.compressedSize;
    if (end > this.access.size) throw this.bad('unexpected end of archive: the entry is truncated', entry.path);

    const out: Uint8Array[] = [];
    const crc = new ZipPassThrough(''); // fflate's CRC-32: it sets `crc` when given the last chunk
    crc.ondata = () => {};
    let expanded = 0;
    const take = (chunk: Uint8Array) => {
      expanded += chunk.length;
      // The declared size was checked against the limits: more than it is a lie, stopped here.
      if (expanded > entry.size) throw this.bad(`expands past the ${entry.size} bytes the directory declares`, entry.path);
      this.charge(entry, expanded, false);
      crc.push(chunk);
      out.push(chunk);
    };
    const inflater = entry.method === 8 ? new Inflate((chunk) => take(chunk)) : undefined;
    // Deflate expands at most about 1032:1, so a compressed piece of 8 KiB gives at most ~8 MiB
    // before the limits are checked; stored entries are read a chunk at a time.
    const step = inflater ? INFLATE_STEP : CHUNK_SIZE;
    for (let at = start; at < end; at += step) {
      const piece = this.read(at, Math.min(step, end - at), entry.path);
      try {
        if (inflater) inflater.push(piece, at + step >= end);
        else take(piece);
      } catch (e) {
        throw this.fault(e, entry);
      }
      while (out.length) yield out.shift()!;
    }
    if (inflater && start === end) {
      try {
        inflater.push(new Uint8Array(0), true);
      } catch (e) {
        throw this.fault(e, entry);
      }
    }
    while (out.length) yield out.shift()!;
    if (expanded !== entry.size) throw this.bad(`expanded to ${expanded} bytes, the directory says ${entry.size}`, entry.path);
    crc.push(new Uint8Array(0), true);
    if (crc.crc >>> 0 !== entry.crc) throw this.bad('CRC-32 mismatch: the entry is damaged', entry.path);
  }

  /** fflate's error (it has a numeric code) as a BAD_ARCHIVE in its words; ours pass through. */
  private fault(e: unknown, entry: ZipEntry): unknown {
    if (e instanceof Error && typeof (e as { code?: unknown }).code === 'number') return this.bad(e.message, entry.path);
    return e;
  }

  private charge(entry: ZipEntry, bytes: number, declared: boolean): void {
    const limits = this.limits;
    const what = declared ? 'declares' : 'expands to';
    if (bytes > limits.entryBytes) {
      throw new ArchiveLimitError(this.file, entry.path, 'entryBytes', bytes, `${what} more than ${limits.entryBytes} bytes (the limit for one entry)`);
    }
    if (bytes > RATIO_FLOOR && bytes > entry.compressedSize * limits.ratio) {
      throw new ArchiveLimitError(
        this.file,
        entry.path,
        'ratio',
        bytes / Math.max(1, entry.compressedSize),
        `${what} more than ${RATIO_FLOOR} bytes, ${limits.ratio} times its compressed size`,
      );
    }
    if (declared) return;
    const before = this.expanded.get(entry) ?? 0;
    if (bytes <= before) return;
    this.expanded.set(entry, bytes);
    let total = 0;
    for (const n of this.expanded.values()) total += n;
    if (total > limits.archiveBytes) throw this.overArchive(entry, total, 'expand');
  }

  private overArchive(entry: ZipEntry, total: number, verb: 'declare' | 'expand'): ArchiveLimitError {
    const limit = this.limits.archiveBytes;
    return new ArchiveLimitError(
      this.file,
      entry.path,
      'archiveBytes',
      total,
      `the entries read ${verb} more than ${limit} bytes together (the limit for all entries)`,
    );
  }

  close(): void {
    this.access.close?.();
  }
}

/** A flat zip written as a stream into a sink: files one after the other, each as a stream of chunks. */
export class ZipWriter {
  private readonly zip: Zip;
  private failure: Error | undefined;

  constructor(sink: ByteSink) {
    this.zip = new Zip((err, data) => {
      if (err) this.failure = err;
      else sink.write(data);
    });
  }

  /** Adds a file; write its content with `write`, then `end` it before the next file. */
  file(name: string): { write(chunk: Uint8Array): void; end(): void } {
    const file = new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    return {
      write: (chunk) => {
        file.push(chunk);
        this.check();
      },
      end: () => {
        file.push(new Uint8Array(0), true);
        this.check();
      },
    };
  }

  end(): void {
    this.zip.end();
    this.check();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}
