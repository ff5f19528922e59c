// Book files on Node: a books folder beside the store (`<store's folder>/books` unless given),
// each book kept under its own file name, written to a temporary file and renamed into place.
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { BookFile } from '../localbook/format.js';
import type { BookStorage } from '../localbook/api.js';
import { BookFileError } from '../localbook/errors.js';
import { FileNotFoundError } from '../errors.js';

/** A BookFile over a file on disk, read by range (never held whole). */
export function diskFile(path: string, fileName = basename(path)): BookFile & { readonly path: string } {
  if (!existsSync(path)) throw new FileNotFoundError(path);
  const size = statSync(path).size;
  return {
    fileName,
    size,
    path, // a rule thread opens the file itself (node/rule-thread.ts)
    read(start, end) {
      const s = Math.min(start, size);
      const n = Math.max(0, Math.min(end, size) - s);
      const out = new Uint8Array(n);
      if (n === 0) return out;
      const fd = openSync(path, 'r');
      try {
        let got = 0;
        while (got < n) {
          const k = readSync(fd, out, got, n - got, s + got);
          if (k === 0) break;
          got += k;
        }
        return got === n ? out : out.subarray(0, got);
      } finally {
        closeSync(fd);
      }
    },
  };
}

const CHUNK = 1 << 20;

function sameBytes(a: BookFile, b: BookFile): boolean {
  if (a.size !== b.size) return false;
  for (let at = 0; at < a.size; at += CHUNK) {
    const x = a.read(at, at + CHUNK);
    const y = b.read(at, at + CHUNK);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/** The default books folder of a store file. */
export const defaultBooksDir = (storePath: string): string => join(dirname(resolve(storePath)), 'books');

/** A file name that stays inside the folder. */
function safeName(fileName: string): string {
  const name = basename(fileName.replace(/\\/g, '/'));
  if (name === '' || name === '.' || name === '..') throw new BookFileError(fileName, 'extension', 'not a usable file name');
  return name;
}

/** Whether `path` is `folder` or lies under it (both absolute, resolved). */
const within = (folder: string, path: string): boolean => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** `path` with symlinks resolved as far as it exists (the part that does not exist yet kept as written). */
function realOf(path: string): string {
  let at = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      rest.unshift(basename(at));
      at = parent;
    }
  }
}

export function folderStorage(dir: string): BookStorage {
  const root = resolve(dir);
  const pathOf = (fileName: string): string => join(root, safeName(fileName));
  /** The real path of a file inside the folder, symlinks resolved; undefined for anything else. */
  const contained = (path: string): string | undefined => {
    try {
      const real = realpathSync(path);
      return within(realOf(root), real) && statSync(real).isFile() ? real : undefined;
    } catch {
      return undefined;
    }
  };
  /** Writes `write` to a temporary file and renames it to `target`; the old file is set aside until done(). */
  const place = (target: string, write: (tmp: string) => void): { undo(): void; done(): void } => {
    mkdirSync(dirname(target), { recursive: true });
    const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    const aside = join(dirname(target), `.${basename(target)}.${process.pid}.old`);
    write(tmp);
    const had = existsSync(target);
    if (had) renameSync(target, aside);
    renameSync(tmp, target);
    return {
      undo() {
        if (existsSync(target)) unlinkSync(target);
        if (had) renameSync(aside, target);
      },
      done() {
        if (had && existsSync(aside)) unlinkSync(aside);
      },
    };
  };
  return {
    locate: pathOf,
    compare(fileName, file) {
      const p = pathOf(fileName);
      if (!existsSync(p)) return 'none';
      // A link out of the folder is never read: it is a different file, replaced only when asked.
      const real = contained(p);
      return real && sameBytes(diskFile(real), file) ? 'same' : 'different';
    },
    keep(file) {
      const target = pathOf(file.fileName);
      const source = (file as { path?: string }).path;
      return place(target, (tmp) => {
        if (source) return copyFileSync(source, tmp);
        const fd = openSync(tmp, 'w');
        try {
          for (let at = 0; at < file.size; at += CHUNK) writeSync(fd, file.read(at, at + CHUNK));
        } finally {
          closeSync(fd);
        }
      });
    },
    keepCover(bookUrl, cover) {
      const ext = cover.mediaType.includes('png') ? 'png' : cover.mediaType.includes('gif') ? 'gif' : cover.mediaType.includes('webp') ? 'webp' : 'jpg';
      const path = join(root, 'covers', `${safeName(basename(bookUrl))}.${ext}`);
      return { path, ...place(path, (tmp) => writeFileSync(tmp, cover.bytes)) };
    },
    readCover(path) {
      // Only a file of the covers folder itself: no other path of the machine is served.
      const covers = join(root, 'covers');
      let real: string;
      try {
        real = realpathSync(resolve(path));
        if (dirname(real) !== realpathSync(covers) || !statSync(real).isFile()) return undefined;
      } catch {
        return undefined;
      }
      const ext = real.slice(real.lastIndexOf('.') + 1).toLowerCase();
      const mediaType = ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/jpeg';
      return { bytes: new Uint8Array(readFileSync(real)), mediaType };
    },
    holds(bookUrl) {
      return isAbsolute(bookUrl) && within(root, resolve(bookUrl)) && within(realOf(root), realOf(bookUrl));
    },
    open(bookUrl, originName) {
      // Only ever a file inside the folder, symlinks resolved: the bookUrl when it is one, else the
      // file of that name there (a store from a phone names content:// or /storage/... places).
      const direct = isAbsolute(bookUrl) ? contained(bookUrl) : undefined;
      if (direct) return diskFile(direct, originName);
      let inFolder: string | undefined;
      try {
        inFolder = pathOf(originName);
      } catch {
        inFolder = undefined;
      }
      const byName = inFolder === undefined ? undefined : contained(inFolder);
      if (byName) return diskFile(byName, originName);
      throw new FileNotFoundError(inFolder ?? root);
    },
  };
}
