// Reads the records of a JSON file as a stream: the elements of a top-level array one by one
// (or a top-level object as one record), never the whole text at once. Synchronous, so one
// import can run inside one SQLite transaction. Invalid JSON is reported with line and column.
//
// Two readers: a fast one splits the array into its elements and parses each with the engine's
// JSON.parse; the exact one tokenizes byte by byte and knows the line and column of any error.
// The fast one is tried first; where it cannot go on (the file is not a plain array, or some
// element does not parse), the exact one reads the file again from the start, skipping the
// records already given, so the caller sees the same records and the same error either way.
import { TokenParser, Tokenizer } from '@streamparser/json';
import { InvalidJsonError, UnsupportedInputError } from './errors.js';
import { JsonArraySplitter, type SplitElement } from './json-array-splitter.js';
import { concatBytes, type ByteSource } from './source.js';

/** Where the JSON comes from: a file, a zip entry, bytes in memory (source.ts). */
export type JsonSource = ByteSource;

export interface JsonRecord {
  /** Position in the top-level array; 0 for a top-level object. */
  readonly index: number;
  readonly value: unknown;
  /**
   * What the fast reader knows of the record's text, so the checks of each value can be
   * skipped where the text rules a problem out: how deep it nests, and whether it has a `\u`
   * escape (text decoded from UTF-8 holds no lone surrogate; only an escape can write one).
   */
  readonly text?: { readonly depth: number; readonly escapes: boolean };
}

export type JsonRoot = 'unread' | 'empty' | 'array' | 'object';

const BOM = [0xef, 0xbb, 0xbf];
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Integers beyond 2^53 stay exact as bigint (books.group and book_groups.groupId need 64 bits). */
class ExactTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    const n = Number(text);
    if (Number.isSafeInteger(n) || !/^-?\d+$/.test(text)) return n;
    return BigInt(text) as unknown as number;
  }
}

/**
 * The tokenizer decodes each run of non-ASCII bytes with its own TextDecoder call, and a
 * TextDecoder drops a U+FEFF at the start of what it decodes unless told not to: a U+FEFF
 * inside a string (real rule files have them) would vanish. Its decoder is swapped for one
 * that keeps them; the test of this module catches a library change that breaks this.
 */
function keepByteOrderMarks(tokenizer: Tokenizer): void {
  const strings = (tokenizer as unknown as { bufferedString?: { decoder?: InstanceType<typeof TextDecoder> } }).bufferedString;
  if (strings && strings.decoder instanceof TextDecoder) strings.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
}

/**
 * The values of the elements from `from` to the end, when those lie in `chunk` itself and parse
 * together as one array; undefined otherwise. The first element may have begun in an earlier
 * chunk: it is left out (from 1) and parsed on its own.
 */
function parseTogether(decoder: InstanceType<typeof TextDecoder>, chunk: Uint8Array, elements: readonly SplitElement[]): { from: number; values: unknown[]; escapes: boolean } | undefined {
  const inChunk = (el: SplitElement) => el.bytes.buffer === chunk.buffer && el.bytes.byteOffset >= chunk.byteOffset;
  const from = elements.length > 0 && inChunk(elements[0]!) ? 0 : 1;
  if (elements.length - from < 2) return undefined;
  for (let k = from; k < elements.length; k++) if (elements[k]!.longNumber || !inChunk(elements[k]!)) return undefined;
  const first = elements[from]!.bytes;
  const last = elements[elements.length - 1]!.bytes;
  const start = first.byteOffset - chunk.byteOffset;
  const end = last.byteOffset - chunk.byteOffset + last.length;
  try {
    const text = decoder.decode(chunk.subarray(start, end));
    const values = JSON.parse(`[${text}]`) as unknown[];
    return values.length === elements.length - from ? { from, values, escapes: text.includes('\\u') } : undefined;
  } catch {
    return undefined;
  }
}

export class JsonRecordReader {
  readonly source: JsonSource;
  /** What the file holds at the top level, known once reading has begun. */
  root: JsonRoot = 'unread';
  bytesRead = 0;
  /** A file of secrets (servers.json): errors say where, never what the text around it is. */
  private readonly secret: boolean;

  constructor(source: JsonSource, options: { readonly secret?: boolean } = {}) {
    this.source = source;
    this.secret = options.secret ?? false;
  }

  /** Bytes in the source (as declared; the bytes actually read once reading is done). */
  get size(): number {
    return Math.max(this.source.size, this.bytesRead);
  }

  *records(onBytes?: (bytesRead: number) => void): Generator<JsonRecord> {
    const given = yield* this.fastRecords(onBytes);
    if (given === ALL) return;
    this.bytesRead = 0;
    this.root = 'unread';
    for (const rec of this.exactRecords(onBytes)) if (rec.index >= given) yield rec;
  }

  /** The fast reader: ALL when it read the whole file, else how many records it gave before it stopped. */
  private *fastRecords(onBytes?: (bytesRead: number) => void): Generator<JsonRecord, number> {
    const splitter = new JsonArraySplitter();
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let index = 0;
    let first = true;
    for (let chunk of this.chunks()) {
      if (first) {
        if (this.bytesRead === chunk.length && BOM.every((b, k) => chunk[k] === b)) chunk = chunk.subarray(3);
        let i = 0;
        while (i < chunk.length && isSpace(chunk[i]!)) i++;
        if (i === chunk.length) continue;
        if (chunk[i] !== 0x5b) return index; // an object, a scalar, or junk: the exact reader says which
        first = false;
        this.root = 'array';
      }
      const elements = splitter.push(chunk);
      if (!elements) return index;
      // The elements that lie whole in this chunk are parsed together (one decode, one
      // JSON.parse for the lot); one that spans chunks, holds a long number or does not parse
      // takes the way of one element at a time.
      const group = parseTogether(decoder, chunk, elements);
      for (let k = 0; k < elements.length; k++) {
        const el = elements[k]!;
        let value: unknown;
        let escapes: boolean;
        if (group !== undefined && k >= group.from) {
          value = group.values[k - group.from];
          escapes = group.escapes;
        } else {
          try {
            if (el.longNumber) {
              value = parseExact(el.bytes);
              escapes = true;
            } else {
              const text = decoder.decode(el.bytes);
              value = JSON.parse(text);
              escapes = text.includes('\\u');
            }
          } catch {
            return index;
          }
        }
        yield { index: index++, value, text: { depth: el.depth, escapes } };
      }
      onBytes?.(this.bytesRead);
    }
    return !first && splitter.complete ? ALL : index;
  }

  /** The exact reader: token by token, with the position of every token for error messages. */
  private *exactRecords(onBytes?: (bytesRead: number) => void): Generator<JsonRecord> {
    const queue: JsonRecord[] = [];
    let tokenizer: Tokenizer | undefined;
    let skip = 0; // BOM bytes before the tokenizer's offset 0
    let lastToken = 0;
    let started = false;
    for (const chunk of this.chunks()) {
      let bytes = chunk;
      if (!started) {
        let i = 0;
        if (this.bytesRead === chunk.length && BOM.every((b, k) => chunk[k] === b)) i = skip = 3;
        while (i < bytes.length && isSpace(bytes[i]!)) i++;
        if (i === bytes.length) continue;
        started = true;
        const first = bytes[i]!;
        if (first !== 0x5b && first !== 0x7b) {
          throw new UnsupportedInputError(this.source.name, 'not a JSON array or object of records');
        }
        this.root = first === 0x5b ? 'array' : 'object';
        tokenizer = this.tokenizer(queue, (offset) => (lastToken = offset));
        bytes = bytes.subarray(skip);
      }
      try {
        tokenizer!.write(bytes);
      } catch (e) {
        throw this.invalid(e, skip, lastToken);
      }
      onBytes?.(this.bytesRead);
      while (queue.length) yield queue.shift()!;
    }
    if (!started) {
      this.root = 'empty';
      return;
    }
    try {
      tokenizer!.end();
    } catch (e) {
      throw this.invalid(e, 0, this.size);
    }
    while (queue.length) yield queue.shift()!;
  }

  private tokenizer(queue: JsonRecord[], onOffset: (offset: number) => void): Tokenizer {
    const tokenizer = new ExactTokenizer();
    keepByteOrderMarks(tokenizer);
    const parser = new TokenParser({ paths: [this.root === 'array' ? '$.*' : '$'], keepStack: false });
    parser.onValue = ({ value, key }) => {
      queue.push({ index: typeof key === 'number' ? key : 0, value });
    };
    tokenizer.onToken = (token) => {
      onOffset(token.offset);
      parser.write(token);
    };
    tokenizer.onEnd = () => {
      if (!parser.isEnded) parser.end();
    };
    return tokenizer;
  }

  private *chunks(): Generator<Uint8Array> {
    for (const chunk of this.source.chunks()) {
      this.bytesRead += chunk.length;
      yield chunk;
    }
  }

  /** The parser's complaint as an InvalidJsonError at the right line and column. */
  private invalid(e: unknown, skip: number, lastToken: number): unknown {
    if (!(e instanceof Error) || e instanceof InvalidJsonError) return e;
    const absolute = /absolute position "(\d+)"/.exec(e.message);
    const offset = Math.min(this.size, (absolute ? Number(absolute[1]) : lastToken) + skip);
    const { line, column } = lineAndColumn(this.source, offset);
    return new InvalidJsonError(this.source.name, line, column, offset, this.secret ? 'syntax error (the text is not shown: the file holds secrets)' : explain(e.message));
  }
}

const ALL = -1;

/** One value parsed exactly (64-bit integers as bigint), for elements JSON.parse would round. */
function parseExact(bytes: Uint8Array): unknown {
  const tokenizer = new ExactTokenizer();
  keepByteOrderMarks(tokenizer);
  const parser = new TokenParser({ paths: ['$'], keepStack: false });
  let result: unknown;
  let done = false;
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) {
      result = value;
      done = true;
    }
  };
  tokenizer.onToken = (token) => parser.write(token);
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  tokenizer.write(bytes);
  tokenizer.end();
  if (!done) throw new Error('no value');
  return result;
}

/** 1-based line and column (in characters) of a byte offset. */
export function lineAndColumn(source: JsonSource, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  let base = 0;
  const tail: Uint8Array[] = []; // the bytes of the current line up to the offset
  for (const chunk of source.chunks()) {
    if (base >= offset) break;
    const end = Math.min(chunk.length, offset - base);
    for (let i = chunk.indexOf(0x0a); i !== -1 && i < end; i = chunk.indexOf(0x0a, i + 1)) {
      line++;
      lineStart = base + i + 1;
      tail.length = 0;
    }
    tail.push(chunk.slice(Math.max(0, lineStart - base), end));
    base += chunk.length;
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(concatBytes(tail)).replace(/^\uFEFF/, '');
  return { line, column: [...text].length + 1 };
}

const EXPECTED: Record<string, string> = {
  KEY: 'a property name in double quotes',
  COLON: '":"',
  COMMA: '"," or a closing bracket',
  VALUE: 'a value',
};

/** A plainer wording of the parser's message. */
function explain(message: string): string {
  const token = /Unexpected (?:partial )?\w+ \((.*)\) in state (\w+)/.exec(message);
  if (token) {
    const want = EXPECTED[token[2]!];
    return `unexpected ${token[1]}${want ? `, expected ${want}` : ''}`;
  }
  const char = /Unexpected "(.*)" at chunk position/.exec(message);
  if (char) return `unexpected character ${JSON.stringify(char[1])}`;
  if (/end/i.test(message)) return 'unexpected end of data';
  return message;
}
