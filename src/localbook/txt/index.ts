// The TXT format: charset, TOC rule and chapters as the app's TextFile finds them, and a
// chapter's text as TextFile.getContent gives it.
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { BookFile, BookFormat, ParseOptions, ParsedBook, ParsedChapter } from '../format.js';
import { BookFileError } from '../errors.js';
import { compileGuarded, Deadline } from '../regex-guard.js';
import { JavaRegexError } from '../../text/java-regex.js';
import { decoder, detectCharset, looksBinary, normalizeCharset, type TxtCharset } from './charset.js';
import { BLOCK_SIZE, splitByRule, splitWithoutRule, type Split } from './split.js';
import { chooseTocRule, tocRuleRef, type TocRuleRow } from './toc-rule.js';
import { nameAndAuthor } from '../file-name.js';
import { wordCountFormat } from '../word-count.js';

/** What the TXT format takes beside the shared options. */
export interface TxtParseOptions extends ParseOptions {
  /** A TOC rule already chosen for the book (its tocUrl): used instead of choosing again. */
  readonly tocUrl?: string;
  /** Time limit of one rule's matching, in ms: per block of 512,000 bytes when splitting (default 10,000), per rule when choosing (default 3,000). */
  readonly timeLimitMs?: number;
  /** The book's splitLongChapter setting (default true, as for a new book). */
  readonly splitLongChapter?: boolean;
}

/** The app's chapter url of a TXT chapter: the middle 16 hex digits of MD5(originName + index + title). */
export function txtChapterUrl(originName: string, index: number, title: string): string {
  return bytesToHex(md5(utf8ToBytes(`${originName}${index}${title}`))).slice(8, 24);
}

/** What the TXT format finds beyond the shared fields: the book's wordCount as the app counts it. */
export interface TxtParsedBook extends ParsedBook {
  readonly wordCount: string;
}

function parse(file: BookFile, options: TxtParseOptions = {}): TxtParsedBook {
  if (file.size === 0) throw new BookFileError(file.fileName, 'empty', 'the file is empty');
  const notes: string[] = [];
  const sample = file.read(0, BLOCK_SIZE);
  let charset: TxtCharset;
  const given = options.charset ? normalizeCharset(options.charset) : undefined;
  if (options.charset && !given) notes.push(`charset ${JSON.stringify(options.charset)} is not one this reader decodes; detected instead`);
  charset = given ?? detectCharset(sample);
  if (looksBinary(sample, charset)) throw new BookFileError(file.fileName, 'binary', 'the file is binary, not text (NUL or control bytes in its first block)');

  let split: Split | undefined;
  let tocUrl = '';
  const splitLong = options.splitLongChapter ?? true;
  // A rule past its limit fails the parse (RuleTimeoutError names it); each block of the split is a stretch of its own.
  const splitWith = (row: Pick<TocRuleRow, 'name' | 'rule' | 'id'>, regex: RegExp): Split => {
    const deadline = new Deadline(tocRuleRef(row), options.timeLimitMs ?? 10000);
    const done = splitByRule(file, charset, regex, deadline, splitLong);
    deadline.stop();
    return done;
  };
  if (options.tocUrl) {
    let regex: RegExp | undefined;
    try {
      regex = compileGuarded(options.tocUrl, { multiline: true }).regex;
    } catch (e) {
      if (!(e instanceof JavaRegexError)) throw e;
      notes.push(`the book's TOC rule (tocUrl) cannot be used: ${e.reason}; chapters cut without a rule`);
    }
    if (regex) {
      const row = options.tocRules?.find((r) => r.rule === options.tocUrl) ?? { name: "the book's TOC rule (tocUrl)", rule: options.tocUrl };
      split = splitWith(row, regex);
      tocUrl = options.tocUrl;
    }
  } else if (options.tocRules && options.tocRules.length > 0) {
    const firstBlock = decoder(charset).decode(sample);
    const chosen = chooseTocRule(options.tocRules, firstBlock, notes, options.timeLimitMs ?? 3000);
    if (chosen) {
      split = splitWith(chosen.row, chosen.regex);
      tocUrl = chosen.row.rule;
      notes.push(`TOC rule ${JSON.stringify(chosen.row.name)} chosen`);
    } else notes.push('no enabled TOC rule matches the first block; chapters cut without a rule');
  } else notes.push('no enabled TOC rules in the store; chapters cut without a rule');
  if (split && split.chapters.length === 0) throw new BookFileError(file.fileName, 'no-chapters', `the TOC rule ${JSON.stringify(tocUrl)} finds no chapter`);
  split ??= splitWithoutRule(file, charset);

  const chapters: ParsedChapter[] = split.chapters.map((c, index) => ({
    index,
    title: c.title,
    url: txtChapterUrl(file.fileName, index, c.title),
    start: c.start,
    end: c.end,
    ...(c.isVolume ? { isVolume: true } : {}),
    ...(c.wordCount !== undefined ? { wordCount: c.wordCount } : {}),
  }));
  const { name, author } = nameAndAuthor(file.fileName);
  return {
    name,
    author,
    ...(split.intro !== undefined ? { intro: split.intro } : {}),
    charset,
    tocUrl,
    chapters,
    notes: [`charset ${charset}`, ...notes],
    wordCount: wordCountFormat(split.words),
  } satisfies TxtParsedBook;
}

// Kotlin's Regex("^[\\n\\s]+") on Android: ICU's \s.
const LEADING_BLANK = /^[\n\t\n\f\r\p{Z}]+/u;

/** TextFile.getContent: the bytes decoded, the text after the title, leading blanks made two ideographic spaces. */
function chapterText(file: BookFile, book: { readonly charset?: string }, chapter: ParsedChapter): string {
  const charset = normalizeCharset(book.charset ?? 'UTF-8') ?? 'UTF-8';
  const start = chapter.start ?? 0;
  const end = chapter.end ?? start;
  const text = decoder(charset).decode(file.read(start, Math.max(start, end)));
  const at = text.indexOf(chapter.title);
  const after = at < 0 ? text : text.slice(at + chapter.title.length);
  return after.replace(LEADING_BLANK, '　　');
}

export const txtFormat: BookFormat = { extensions: ['txt'], parse, chapterText };
