// What the import and export pipelines read from and write to, without naming where the bytes
// live: in memory (the browser, `importBackupBytes`) or in files (Node, `fs/byte-sources.ts`). Nothing
// here imports a Node module, so the browser bundle can take the whole pipeline.

/** Bytes read from the start as often as needed (the JSON reader may read a file twice). */
export interface ByteSource {
  /** What to call it in reports and errors: a path, or `archive.zip:entry.json`. */
  readonly name: string;
  /** Size in bytes (for a zip entry: as its directory declares it; used for progress only). */
  readonly size: number;
  /** The bytes from the start, a chunk at a time; a chunk may be reused after the next one is asked for. */
  chunks(): Iterable<Uint8Array>;
  /** The most bytes a JSON reader may read without finishing a record (a zip entry's recordBytes); none when absent. */
  readonly recordLimit?: { readonly bytes: number; error(bytes: number): Error };
}

/** Random access to an archive: the zip reader reads its directory and entries by offset. */
export interface RandomAccess {
  readonly name: string;
  readonly size: number;
  /** `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Uint8Array;
  close?(): void;
}

/** Where output goes, a chunk at a time: a file, or an array collected into one Uint8Array. */
export interface ByteSink {
  write(chunk: Uint8Array): void;
}

export const CHUNK_SIZE = 1 << 16;

export function bytesSource(name: string, data: Uint8Array, chunkSize = CHUNK_SIZE): ByteSource {
  return {
    name,
    size: data.length,
    *chunks() {
      for (let at = 0; at < data.length; at += chunkSize) yield data.subarray(at, at + chunkSize);
    },
  };
}

export function bytesAccess(name: string, data: Uint8Array): RandomAccess {
  return { name, size: data.length, read: (offset, length) => data.subarray(offset, offset + length) };
}

/** A sink that keeps what is written; `bytes()` joins it. */
export class MemorySink implements ByteSink {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  write(chunk: Uint8Array): void {
    this.parts.push(new Uint8Array(chunk)); // a copy (a Buffer's slice would be a view)
    this.length += chunk.length;
  }
  bytes(): Uint8Array {
    return concatBytes(this.parts, this.length);
  }
}

export function concatBytes(parts: readonly Uint8Array[], length = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A strict UTF-8 decoder that keeps a leading U+FEFF. Node 20 and 22 decode through two paths,
 * and their "fast path" for whole inputs takes twice as long as the ICU one (60 MB of rule
 * files: 104 against 60 ms on Node 20, 128 against 54 on 22); one streaming call, here of no
 * bytes, moves a decoder to the ICU path for good. Node 24 and Bun decode as fast either way.
 */
export function utf8Decoder(): InstanceType<typeof TextDecoder> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  decoder.decode(new Uint8Array(0), { stream: true });
  return decoder;
}

/** The whole source as text (small files only: servers.json before decryption). */
export function readText(source: ByteSource): string {
  const parts: Uint8Array[] = [];
  for (const chunk of source.chunks()) parts.push(new Uint8Array(chunk)); // a copy: the source may reuse the chunk
  return utf8.decode(concatBytes(parts));
}
