// The `book` commands for web books (a book source's books): add one from a search hit or a
// source, fetch its TOC again, read a chapter through the chapter cache beside the store.
// book.ts sends a command here when its argument is a web book (an http(s) URL to add, a book
// on the shelf that is not a local file).
import type { CliRun } from '../io.js';
import { toJson } from '../../inspect/format.js';
import { replaceJob } from '../../localbook/api.js';
import { cacheDirOf, FileChapterCache } from '../../node/chapter-cache.js';
import { ruleThreads } from '../../node/rule-thread.js';
import { addWebBook, findWebBook, isLocalBook, readWebChapter, refreshWebToc } from '../../sources/shelf/tasks.js';
import type { AnyStore } from '../../store/store.js';
import { openForWrite } from '../open-store.js';
import { printable } from '../printable.js';
import { allowPrivateHosts, cliEngine, type CliEngine } from '../source-engine.js';

export interface WebFlags {
  json?: boolean;
  force?: boolean;
  source?: string;
  allowPrivateHosts?: boolean;
}

/** A web book's URL as `book add` takes it (a file path otherwise). */
export const isWebUrl = (arg: string): boolean => /^https?:\/\//i.test(arg);

/**
 * Whether `ref` names a web book on the shelf: its bookUrl is a web book's, or no bookUrl matches
 * and some web book has that name. Otherwise the local-book commands answer (and report).
 */
export function namesWebBook(store: AnyStore, ref: string): boolean {
  const row = store.table('books').get(ref);
  if (row) return !isLocalBook(row);
  return (store.table('books').select('WHERE name = ?', [ref]) as Record<string, unknown>[]).some((b) => !isLocalBook(b));
}

/** Runs `fn` with the store open for writing and the engine, closing both after. */
async function withEngine<T>(io: CliRun, storePath: string, flags: WebFlags, fn: (store: AnyStore, engine: CliEngine) => Promise<T>): Promise<T> {
  const store = openForWrite(storePath);
  const engine = cliEngine(store, { allowPrivateHosts: allowPrivateHosts(flags.allowPrivateHosts, io.env) });
  try {
    return await fn(store, engine);
  } finally {
    engine.dispose();
    store.close();
  }
}

export async function addWeb(io: CliRun, storePath: string, bookUrl: string, flags: WebFlags): Promise<void> {
  await withEngine(io, storePath, flags, async (store, engine) => {
    const r = await addWebBook(store, bookUrl, engine, { ...(flags.source ? { sourceUrl: flags.source } : {}), ...(flags.force ? { force: true } : {}) });
    if (flags.json) io.stdout.write(toJson({ ok: true, ...r }) + '\n');
    else {
      const how = r.action === 'replaced' ? `added, replacing ${printable(r.replaced ?? '')}` : r.action;
      io.stdout.write(`${how} ${printable(r.name)}${r.author ? ` (${printable(r.author)})` : ''}: ${r.chapters} chapters\n  ${printable(r.bookUrl)}\n`);
    }
  });
}

export async function tocWeb(io: CliRun, storePath: string, ref: string, flags: WebFlags): Promise<void> {
  await withEngine(io, storePath, flags, async (store, engine) => {
    const r = await refreshWebToc(store, ref, engine);
    const rows = store.chapters
      .list(r.bookUrl)
      .map((c) => ({ index: c.index, title: c.title, url: c.url, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay }));
    const book = findWebBook(store, r.bookUrl);
    const fields = { totalChapterNum: book['totalChapterNum'], lastCheckCount: book['lastCheckCount'], latestChapterTitle: book['latestChapterTitle'] };
    if (flags.json) io.stdout.write(toJson({ bookUrl: r.bookUrl, name: r.name, ...fields, chapters: rows }) + '\n');
    else io.stdout.write(rows.map((c) => `${c.index}\t${printable(c.title)}\t${printable(c.url)}\n`).join(''));
  });
}

/**
 * A web chapter as the app shows it: the text kept in the cache (as the source gave it), then the
 * book's replace rules on it and on the title, on a rule thread (as a local book's).
 */
export async function readWeb(io: CliRun, storePath: string, ref: string, index: number, flags: WebFlags, limit: { timeLimitMs?: number }): Promise<void> {
  await withEngine(io, storePath, flags, async (store, engine) => {
    const c = await readWebChapter(store, ref, index, engine, new FileChapterCache(cacheDirOf(store.path)));
    const job = replaceJob(store, findWebBook(store, c.bookUrl), c.text, c.title, { title: true, ...limit });
    const shown = job && (job.rules.length > 0 || (job.titleRules?.length ?? 0) > 0) ? ruleThreads().replace(job) : undefined;
    const out = { ...c, title: shown?.title ?? c.title, text: shown ? indented(shown.text) : c.text, notes: shown?.notes ?? [] };
    if (flags.json) io.stdout.write(toJson(out) + '\n');
    else {
      io.stdout.write(`${out.title}\n${out.text.endsWith('\n') ? out.text : `${out.text}\n`}`);
      for (const n of out.notes) io.stderr.write(`note: ${n}\n`);
    }
  });
}

/** The rules run on trimmed lines; the app shows each non-blank paragraph indented again (ReadBookConfig.paragraphIndent). */
const indented = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => `\u3000\u3000${l}`)
    .join('\n');
