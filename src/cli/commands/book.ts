import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { toJson } from '../../inspect/format.js';
import { openStore } from '../../store/open.js';
import { addLocalBook, bookFileAt, readLocalChapter } from '../../node/localbook.js';
import { findLocalBook } from '../../localbook/api.js';
import { EXIT, UsageError } from '../exit.js';
import { errorJson, type ErrorJson } from '../errors.js';
import { printable } from '../printable.js';
import type { AnyStore } from '../../store/store.js';
import { openForWrite } from '../open-store.js';
import { ALLOW_PRIVATE_OPTION } from '../source-engine.js';
import { addWeb, isWebUrl, namesWebBook, readWeb, tocWeb } from './book-web.js';

interface Flags {
  json?: boolean;
  books?: string;
  force?: boolean;
  timeLimit?: string;
  source?: string;
  allowPrivateHosts?: boolean;
}

type Added = {
  ok: true;
  file: string;
  bookUrl: string;
  name: string;
  author: unknown;
  chapters: number;
  charset: unknown;
  tocUrl: unknown;
  refreshed: boolean;
  notes: readonly string[];
};
type AddReport = Added | { ok: false; file: string; error: ErrorJson };

function addOne(store: AnyStore, f: string, flags: Flags, limit: { timeLimitMs?: number }): AddReport {
  try {
    const r = addLocalBook(store, bookFileAt(f), { ...(flags.books ? { booksDir: flags.books } : {}), ...(flags.force ? { force: true } : {}), ...limit });
    const b = r.book;
    const fields = { bookUrl: b.bookUrl, name: b.name, author: b['author'], chapters: r.chapters.length, charset: b['charset'], tocUrl: b['tocUrl'] };
    return { ok: true, file: f, ...fields, refreshed: r.refreshed, notes: r.notes };
  } catch (e) {
    return { ok: false, file: f, error: errorJson(e) };
  }
}

/** One added book: a TXT names its charset; an EPUB has none (its XHTML declares its own). */
function addedText(r: Added): string {
  const kind = /\.epub$/i.test(r.file) ? 'EPUB' : `TXT, ${r.charset}`;
  const head = `${r.refreshed ? 're-split' : 'added'} ${r.name}${r.author ? ` (${r.author})` : ''}: ${r.chapters} chapters, ${kind}`;
  return `${head}\n  ${r.bookUrl}\n${r.notes.map((n) => `  - ${n}\n`).join('')}`;
}

const booksOption = ['--books <dir>', 'the books folder (default: books beside the store)'] as const;

/** `--time-limit <ms>` as AddOptions/ReadOptions take it. */
export function ruleTimeLimit(value: string | undefined, flag = '--time-limit'): { timeLimitMs?: number } {
  if (value === undefined) return {};
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive number of milliseconds, not ${JSON.stringify(value)}`);
  return { timeLimitMs: Number(value) };
}

export function registerBook(program: Command, io: CliRun): void {
  const book = program.command('book').description('books: add local TXT/EPUB files or web books, list their chapters, read a chapter');
  book
    .command('add')
    .description(
      'add book files to the store, split into chapters as the app splits them (the same file again re-splits it, keeping progress); ' +
        "or one web book by its bookUrl (a search result's, or with --source): its info and TOC fetched and stored as the app's add-to-shelf does",
    )
    .argument('<store>', 'the store file')
    .argument('<file...>', 'the book files (.txt, .epub), or one http(s) bookUrl')
    .option(...booksOption)
    .option('--force', 'replace a different file of the same name in the books folder; for a web book, replace the book on the shelf')
    .option('--source <url>', "a web book's source (its bookSourceUrl), when the bookUrl is no search result's")
    .option(...ALLOW_PRIVATE_OPTION)
    .option('--time-limit <ms>', 'time limit of a TOC rule: per rule when choosing (default 3000), per 512,000-byte block when splitting (default 10000)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ legado-store book add legado.db 《三体》作者：刘慈欣.txt\n  $ legado-store book add legado.db https://www.example.com/book/1 --source https://www.example.com\n',
    )
    .action(async (storePath: string, files: string[], flags: Flags) => {
      if (files.some(isWebUrl) || flags.source !== undefined) {
        if (files.length !== 1 || !isWebUrl(files[0]!))
          throw new UsageError('a web book is added alone, by its http(s) bookUrl: book add <store> <bookUrl> [--source <url>]');
        return addWeb(io, storePath, files[0]!, flags);
      }
      const limit = ruleTimeLimit(flags.timeLimit);
      const store = openForWrite(storePath);
      try {
        // Each file on its own (its own transaction): a refused file is reported and the rest go on.
        const results = files.map((f) => addOne(store, f, flags, limit));
        const refused = results.filter((r) => !r.ok).length;
        if (flags.json) io.stdout.write(toJson(results) + '\n');
        else
          for (const r of results) {
            if (r.ok) io.stdout.write(addedText(r));
            else io.stderr.write(`legado-store: ${r.error.code}: ${r.file}: ${printable(r.error.message.replace(/\s*\n\s*/g, ' '))}\n`);
          }
        if (!flags.json && files.length > 1) io.stdout.write(`${results.length - refused} added, ${refused} refused\n`);
        if (refused > 0) io.exitCode = EXIT.failure;
      } finally {
        store.close();
      }
    });
  book
    .command('toc')
    .description("a book's chapters: a local book's index, title, byte range; a web book's TOC fetched again and stored, then index, title, URL")
    .argument('<store>', 'the store file')
    .argument('<book>', 'a bookUrl or a book name')
    .option(...ALLOW_PRIVATE_OPTION)
    .option('--json', 'print JSON')
    .action(async (storePath: string, ref: string, flags: Flags) => {
      if (isWeb(storePath, ref)) return tocWeb(io, storePath, ref, flags);
      const store = openStore(storePath, { create: false, readonly: true });
      try {
        const b = findLocalBook(store, ref);
        const rows = store.chapters
          .list(b.bookUrl)
          .map((c) => ({ index: c.index, title: c.title, url: c.url, start: c.start ?? null, end: c.end ?? null, isVolume: c.isVolume }));
        if (flags.json) io.stdout.write(toJson({ bookUrl: b.bookUrl, name: b.name, chapters: rows }) + '\n');
        else io.stdout.write(rows.map((c) => `${c.index}\t${c.title}\t${c.start ?? ''}-${c.end ?? ''}\n`).join(''));
      } finally {
        store.close();
      }
    });
  book
    .command('read')
    .description(
      "one chapter's text, the title first; chapter indexes start at 0. A local book's as the app shows it (replace rules applied); " +
        "a web book's from the chapter cache beside the store, fetched and kept there when missing",
    )
    .argument('<store>', 'the store file')
    .argument('<book>', 'a bookUrl or a book name')
    .argument('<index>', 'the chapter index: the first chapter is 0, as `book toc` numbers them')
    .option(...booksOption)
    .option('--time-limit <ms>', 'the longest a replace rule may run (its own timeoutMillisecond when shorter; default 10000)')
    .option(...ALLOW_PRIVATE_OPTION)
    .option('--json', 'print JSON')
    .action(async (storePath: string, ref: string, index: string, flags: Flags) => {
      if (!/^\d+$/.test(index)) throw new UsageError(`<index> must be a chapter index (0, 1, ...), not ${JSON.stringify(index)}`);
      const limit = ruleTimeLimit(flags.timeLimit);
      if (isWeb(storePath, ref)) return readWeb(io, storePath, ref, Number(index), flags, limit);
      const store = openStore(storePath, { create: false, readonly: true });
      try {
        const c = readLocalChapter(store, ref, Number(index), { title: true, ...(flags.books ? { booksDir: flags.books } : {}), ...limit });
        if (flags.json) io.stdout.write(toJson(c) + '\n');
        else {
          io.stdout.write(c.text.endsWith('\n') ? c.text : `${c.text}\n`);
          for (const n of c.notes) io.stderr.write(`note: ${n}\n`);
        }
      } finally {
        store.close();
      }
    });
}

/** Whether the book a toc/read names is a web book (looked up read-only; the local commands report a missing one). */
function isWeb(storePath: string, ref: string): boolean {
  const store = openStore(storePath, { create: false, readonly: true });
  try {
    return namesWebBook(store, ref);
  } finally {
    store.close();
  }
}
