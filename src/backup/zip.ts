// Zip archives through yauzl (reading: the central directory, entry by entry as streams) and
// yazl (writing). Backups are flat; entries are matched by their base name.
import { createWriteStream, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

export interface ExtractedEntry {
  /** The entry's base name. */
  readonly name: string;
  /** Where it was written. */
  readonly path: string;
}

export interface ZipListing {
  readonly extracted: ExtractedEntry[];
  /** Base names of the file entries that were not wanted (or repeated a wanted name). */
  readonly others: string[];
}

/** Writes the wanted entries (by base name) into dir, streaming; lists the rest. */
export async function extractZip(zipPath: string, dir: string, wanted: (name: string) => boolean): Promise<ZipListing> {
  mkdirSync(dir, { recursive: true });
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const extracted: ExtractedEntry[] = [];
  const others: string[] = [];
  const taken = new Set<string>();
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => done(e);
        const onEnd = () => done(undefined);
        const onError = (err: Error) => {
          zip.off('entry', onEntry).off('end', onEnd);
          reject(err);
        };
        const done = (e: yauzl.Entry | undefined) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          resolve(e);
        };
        zip.once('entry', onEntry).once('end', onEnd).once('error', onError);
        zip.readEntry();
      });
      if (!entry) break;
      if (entry.fileName.endsWith('/')) continue;
      const name = basename(entry.fileName);
      if (!wanted(name) || taken.has(name.toLowerCase())) {
        others.push(name);
        continue;
      }
      taken.add(name.toLowerCase());
      const path = join(dir, `${extracted.length}-${name}`);
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
      );
      await pipeline(stream, createWriteStream(path));
      extracted.push({ name, path });
    }
  } finally {
    zip.close();
  }
  return { extracted, others };
}

/** Writes a flat zip of the given files (name in the archive → file on disk). */
export async function writeZip(out: string, files: readonly { name: string; path: string }[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addFile(f.path, f.name, { compress: true });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
}

/** True when the file starts like a zip archive. */
export function isZipSignature(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05);
}
