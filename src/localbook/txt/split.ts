// Splitting a TXT file into chapters as the app's TextFile.analyze does it, block by block
// (512,000 bytes, cut at the last line feed), so memory stays bounded whatever the file's size.
// The arithmetic follows the app's, quirks included, because chapter indexes and offsets are
// what reading progress on the phone refers to. Known quirks kept on purpose:
// - the length check for a long chapter inside one block counts from the block's start, so a
//   long chapter that starts mid-block is split only when its length minus its start within the
//   block passes 102,400 bytes (and then split from where the app splits it);
// - a long chapter keeps its heading as an empty chapter, followed by `title(1)`, `title(2)`...;
// - without a rule, a block consumed to its very end leaves the previous carry-over in place.
// One quirk is not kept: after a long chapter split mid-block the app's offsets of the block's
// later chapters point too early; the decisions follow the app, the stored ranges are the real
// bytes (true-ranges.ts).
import type { BookFile } from '../format.js';
import { wordCountFormat } from '../word-count.js';
import { byteLength, decoder, type TxtCharset } from './charset.js';
import { matches, type Deadline } from '../regex-guard.js';
import { placePieces, settleRanges } from './true-ranges.js';

export const BLOCK_SIZE = 512000;
const NO_TOC_MAX = 10 * 1024;
export const TOC_MAX = 102400;
const LF = 0x0a;

export interface DraftChapter {
  title: string;
  start: number;
  end: number;
  isVolume?: boolean;
  wordCount?: string;
  /** Where the chapter really starts in the file, while the app's arithmetic runs (see true-ranges.ts). */
  at?: number;
}

export interface Split {
  chapters: DraftChapter[];
  /** Characters counted as the app counts them (its book wordCount). */
  words: number;
  /** The text before the first heading, up to 500 characters (the app's intro). */
  intro?: string;
}

/** Sequential reads of a BookFile, as the app's input stream gives them. */
class Reader {
  constructor(
    private readonly file: BookFile,
    private pos: number,
  ) {}
  /** Reads up to `len` bytes into `buf` at `at`; -1 at the end. */
  read(buf: Uint8Array, at: number, len: number): number {
    if (len <= 0) return 0;
    const bytes = this.file.read(this.pos, Math.min(this.file.size, this.pos + len));
    if (bytes.length === 0) return -1;
    buf.set(bytes, at);
    this.pos += bytes.length;
    return bytes.length;
  }
}

const hasBom = (b: Uint8Array): boolean => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

// Kotlin's Char.isWhitespace: Java whitespace or a Unicode space separator.
const KT_SPACE = /[^\t\n\x0B\f\r\x1C-\x1F\p{Z}]/u;
const blankBetween = (text: string, from: number, to: number): boolean => {
  KT_SPACE.lastIndex = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || (c >= 9 && c <= 13)) continue;
    if (KT_SPACE.test(text[i]!)) return false;
  }
  return true;
};

/** Chapters without a rule: pieces of about 10 KiB cut at line feeds, titled `第{block}章({n})`. */
export function splitWithoutRule(file: BookFile, charset: TxtCharset, fileStart = 0, fileEnd = Number.MAX_SAFE_INTEGER): Split {
  const dec = decoder(charset);
  const toc: DraftChapter[] = [];
  const buf = new Uint8Array(BLOCK_SIZE);
  let words = 0;
  let blockPos = 0;
  let curOffset = 0;
  let chapterPos = 0;
  let lastWords = 0;
  let carry: number;
  let reader: Reader;
  if (fileStart === 0) {
    reader = new Reader(file, 0);
    const got = Math.max(0, reader.read(buf, 0, 3));
    carry = got;
    if (hasBom(buf) && got === 3) {
      carry = 0;
      curOffset = 3;
    }
  } else {
    reader = new Reader(file, fileStart);
    curOffset = fileStart;
    carry = 0;
  }
  let length: number;
  while (fileEnd - curOffset - carry > 0 && (length = reader.read(buf, carry, Math.min(BLOCK_SIZE - carry, fileEnd - curOffset - carry))) > 0) {
    blockPos++;
    let chapterOffset = 0;
    length += carry;
    let left = length;
    chapterPos = 0;
    while (left > 0) {
      chapterPos++;
      if (left > NO_TOC_MAX) {
        let end = length;
        for (let i = chapterOffset + NO_TOC_MAX; i < length; i++) {
          if (buf[i] === LF) {
            end = i;
            break;
          }
        }
        const n = dec.decode(buf.subarray(chapterOffset, end)).length;
        words += n;
        lastWords = n;
        const start = toc.length > 0 ? toc[toc.length - 1]!.end : curOffset;
        toc.push({ title: `第${blockPos}章(${chapterPos})`, start, end: start + end - chapterOffset, wordCount: wordCountFormat(n) });
        left -= end - chapterOffset;
        chapterOffset = end;
      } else {
        buf.copyWithin(0, length - left, length);
        length -= left;
        carry = left;
        left = 0;
      }
    }
    curOffset += length;
  }
  const n = dec.decode(buf.subarray(0, carry)).length;
  words += n;
  const last = toc[toc.length - 1];
  if (carry > 100 || !last) {
    const start = last ? last.end : curOffset;
    toc.push({ title: `第${blockPos}章(${chapterPos})`, start, end: start + carry, wordCount: wordCountFormat(n) });
  } else {
    last.end += carry;
    last.wordCount = wordCountFormat(lastWords + n);
  }
  return { chapters: toc, words };
}

/** Chapters at the matches of a TOC rule (translated to JS, flags g and u). */
export function splitByRule(file: BookFile, charset: TxtCharset, rule: RegExp, deadline?: Deadline, splitLong = true): Split {
  const dec = decoder(charset);
  const toc: DraftChapter[] = [];
  const buf = new Uint8Array(BLOCK_SIZE);
  const reader = new Reader(file, 0);
  const bytesOf = (s: string): number => byteLength(s, 0, s.length, charset);
  let words = 0;
  let intro: string | undefined;
  let curOffset = 0;
  let lastWords = 0;
  let carry = Math.max(0, reader.read(buf, 0, 3));
  if (carry === 3 && hasBom(buf)) {
    carry = 0;
    curOffset = 3;
  }
  /** Splits [from, to) without a rule and names the pieces after the long chapter. */
  const splitLongChapter = (from: number, to: number, title: string | undefined): Split => {
    // Reading a long chapter back (megabytes, no regex) is not the rule's time: the clock stops, then starts again.
    deadline?.stop();
    const part = splitWithoutRule(file, charset, from, to);
    deadline?.lap();
    if (title !== undefined) part.chapters.forEach((c, k) => (c.title = `${title}(${k + 1})`));
    return part;
  };
  let length: number;
  while ((length = reader.read(buf, carry, BLOCK_SIZE - carry)) > 0) {
    let end = carry + length;
    if (end === BLOCK_SIZE) {
      for (let i = carry + length - 1; i >= 0; i--) {
        if (buf[i] === LF) {
          end = i;
          break;
        }
      }
    }
    deadline?.lap(); // each block is a stretch of the rule's time limit
    const block = dec.decode(buf.subarray(0, end));
    buf.copyWithin(0, end, carry + length);
    carry = carry + length - end;
    length = end;
    let seekPos = 0;
    let seekBytes = 0; // bytes of block[0, seekPos): the app leaves them out of its offsets
    for (const m of matches(rule, block, deadline)) {
      const at = m.index;
      const contentBytes = byteLength(block, seekPos, at, charset);
      const here = curOffset + seekBytes + contentBytes;
      const last = toc[toc.length - 1];
      const lastStart = last ? last.start : curOffset;
      if (splitLong && curOffset + contentBytes - lastStart > TOC_MAX) {
        if (last) last.end = last.start;
        const titleBytes = last ? bytesOf(last.title) : 0;
        const part = splitLongChapter(lastStart + titleBytes, curOffset + contentBytes, last?.title);
        placePieces(part.chapters, lastStart + titleBytes, last?.at !== undefined ? last.at + titleBytes : curOffset + seekBytes, here);
        for (const c of part.chapters) toc.push(c); // not a spread: a long book can have 100,000+ parts
        words += part.words;
        toc.push({ title: m[0], start: curOffset + contentBytes, end: curOffset + contentBytes, at: here });
        lastWords = 0;
      } else {
        const isVolume = (ch: DraftChapter): boolean => {
          // Kotlin's substringAfter(title): the whole text when the title is not in it.
          const t = block.indexOf(ch.title, seekPos);
          return blankBetween(block, t >= 0 && t + ch.title.length <= at ? t + ch.title.length : seekPos, at);
        };
        if (seekPos === 0 && at !== 0) {
          if (!last) {
            if (!blankBetween(block, 0, at)) {
              toc.push({ title: '前言', start: curOffset, end: curOffset + contentBytes, wordCount: wordCountFormat(at), at: curOffset });
              intro = block.slice(0, Math.min(at, 500));
            }
            toc.push({ title: m[0], start: curOffset + contentBytes, end: curOffset + contentBytes, at: here });
          } else {
            last.isVolume = isVolume(last);
            last.end += contentBytes;
            lastWords += at;
            last.wordCount = wordCountFormat(lastWords);
            toc.push({ title: m[0], start: last.end, end: last.end, at: here });
          }
        } else if (last) {
          last.isVolume = isVolume(last);
          last.end = last.start + contentBytes;
          last.wordCount = wordCountFormat(at - seekPos);
          toc.push({ title: m[0], start: last.end, end: last.end, at: here });
        } else {
          toc.push({ title: m[0], start: curOffset, end: curOffset, wordCount: wordCountFormat(at - seekPos), at: here });
        }
        words += at - seekPos;
        lastWords = 0;
      }
      seekPos = at;
      seekBytes += contentBytes;
    }
    const rest = block.length - seekPos;
    words += rest;
    lastWords += rest;
    curOffset += length;
    const last = toc[toc.length - 1];
    if (last) {
      last.end = curOffset;
      last.wordCount = wordCountFormat(lastWords);
    }
  }
  const last = toc[toc.length - 1];
  if (last && splitLong && last.end - last.start > TOC_MAX) {
    const end = last.end;
    last.end = last.start;
    const titleBytes = bytesOf(last.title);
    const part = splitLongChapter(last.start + titleBytes, end, last.title);
    placePieces(part.chapters, last.start + titleBytes, (last.at ?? last.start) + titleBytes, end);
    for (const c of part.chapters) toc.push(c);
  }
  settleRanges(toc, curOffset);
  return intro === undefined ? { chapters: toc, words } : { chapters: toc, words, intro };
}
