// The TXT format: charset, TOC rule and chapters as the app's TextFile finds them, and a
// chapter's text as TextFile.getContent gives it.
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { BookFile, BookFormat, ParseOptions, ParsedBook, ParsedChapter } from '../format.js';
import { BookFileError } from '../errors.js';
import { compileGuarded, Deadline, RegexTimeout } from '../regex-guard.js';
import { JavaRegexError } from '../../text/java-regex.js';
import { decoder, detectCharset, looksBinary, normalizeCharset, type TxtCharset } from './charset.js';
import { BLOCK_SIZE, splitByRule, splitWithoutRule, type Split } from './split.js';
import { chooseTocRule } from './toc-rule.js';
import { nameAndAuthor } from '../file-name.js';
import { wordCountFormat } from '../word-count.js';

/** What the TXT format takes beside the shared options. */
export interface TxtParseOptions extends ParseOptions {
  /** A TOC rule already chosen for the book (its tocUrl): used instead of choosing again. */
  readonly tocUrl?: string;
  /** Time limit of one rule's matching, in ms (default 10,000 for splitting, 3,000 per rule when choosing). */
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
  const trySplit = (pattern: string, regex: RegExp, name: string): Split | undefined => {
    const limit = options.timeLimitMs ?? 10000;
    try {
      return splitByRule(file, charset, regex, new Deadline(pattern, limit * Math.max(1, Math.ceil(file.size / BLOCK_SIZE))), splitLong);
    } catch (e) {
      if (!(e instanceof RegexTimeout)) throw e;
      notes.push(`TOC rule ${name} stopped: matching took longer than its time limit; chapters cut without a rule`);
      return undefined;
    }
  };
  if (options.tocUrl) {
    try {
      const regex = compileGuarded(options.tocUrl, { multiline: true }).regex;
      tocUrl = options.tocUrl;
      split = trySplit(options.tocUrl, regex, 'of the book (tocUrl)');
      if (!split) tocUrl = '';
    } catch (e) {
      if (!(e instanceof JavaRegexError)) throw e;
      notes.push(`the book's TOC rule (tocUrl) cannot be used: ${e.reason}; chapters cut without a rule`);
    }
  } else if (options.tocRules && options.tocRules.length > 0) {
    const firstBlock = decoder(charset).decode(sample);
    const chosen = chooseTocRule(options.tocRules, firstBlock, notes, options.timeLimitMs ?? 3000);
    if (chosen) {
      split = trySplit(chosen.row.rule, chosen.regex, JSON.stringify(chosen.row.name));
      if (split) {
        tocUrl = chosen.row.rule;
        notes.push(`TOC rule ${JSON.stringify(chosen.row.name)} chosen`);
      }
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
