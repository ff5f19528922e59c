// The shelf the WebDAV tests share: books whose names need every kind of escaping, each with the
// progress file name the app gives it (worked out by hand from AppWebDav.getProgressFileName:
// `\ / : * ? " < > |` become `_`, then `% space " # & ( ) + , / : ; < = > ? @ \ |` are
// percent-escaped; the server keeps the escapes as literal text).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from 'legado-store';
import { writeBackupZip, type Json } from './backup-fixtures.js';
import { tempDir } from './files.js';

export interface ShelfBook {
  bookUrl: string;
  name: string;
  author: string;
  /** The app's progress file name for it, literal. */
  file: string;
}

export const SHELF: readonly ShelfBook[] = [
  {
    bookUrl: 'https://b.example/hp',
    name: 'Harry Potter #1: 魔法石',
    author: 'J.K. Rowling/译者',
    file: 'Harry%20Potter%20%231_%20魔法石_J.K.%20Rowling_译者.json',
  },
  { bookUrl: 'https://b.example/3t', name: '三体', author: '刘慈欣', file: '三体_刘慈欣.json' },
  {
    bookUrl: 'https://b.example/ab',
    name: 'A & B (1+1=2), @home; 100%',
    author: '无名氏',
    file: 'A%20%26%20B%20%281%2B1%3D2%29%2C%20%40home%3B%20100%25_无名氏.json',
  },
  { bookUrl: 'https://b.example/who', name: 'Who?', author: 'Me|You "*"', file: 'Who__Me_You%20___.json' },
];

let n = 0;
const dir = tempDir('legado-webdav-');

export function storePath(): string {
  return join(dir, `s${n++}.db`);
}

/** A new store holding `books` (the shelf by default) at chapter 0. */
export function shelfStore(books: readonly Pick<ShelfBook, 'bookUrl' | 'name' | 'author'>[] = SHELF, schema: 62 | 49 = 62): Store<62> {
  const store = openStore(storePath(), { schema }) as Store<62>;
  store.transaction(() => {
    for (const b of books)
      store.tables.books.insert({ bookUrl: b.bookUrl, name: b.name, author: b.author, origin: 'https://src.example', type: 8, durChapterTime: 0 });
  });
  return store;
}

/** A backup zip the way the app writes it: the shelf in bookshelf.json, plus a book source. */
export async function phoneBackupZip(): Promise<Uint8Array> {
  const books: Json[] = SHELF.map((b, i) => ({
    bookUrl: b.bookUrl,
    name: b.name,
    author: b.author,
    origin: 'https://src.example',
    originName: 'src',
    type: 8,
    durChapterIndex: i,
    durChapterPos: 7,
    durChapterTime: 1_600_000_000_000 + i,
    canUpdate: true,
    order: i,
  }));
  const zip = join(dir, `phone${n++}.zip`);
  await writeBackupZip(dir, zip, {
    'bookshelf.json': books,
    'bookSource.json': [{ bookSourceUrl: 'https://src.example', bookSourceName: 'src', bookSourceType: 0, enabled: true }],
  });
  return readFileSync(zip);
}

/** Waits until the clock has passed the next whole second: WebDAV modification times are in seconds. */
export async function nextSecond(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
}

/** Reading progress of a book, read from the file with raw SQL. */
export function rowProgress(
  store: Pick<Store<62>, 'db'>,
  bookUrl: string,
): { durChapterIndex: number; durChapterPos: number; durChapterTitle: string | null; durChapterTime: number } {
  return store.db.prepare('SELECT durChapterIndex, durChapterPos, durChapterTitle, durChapterTime FROM books WHERE bookUrl = ?').get(bookUrl) as never;
}
