// Reads the records of a JSON file as a stream: the elements of a top-level array one by one
// (or a top-level object as one record), never the whole text at once. Synchronous, so one
// import can run inside one SQLite transaction. Invalid JSON is reported with line and column.
//
// Two readers: a fast one hands the elements of the array to the engine's JSON.parse a chunk at a
// time; the exact one tokenizes byte by byte and knows the line and column of any error. The
// fast one is tried first; where it cannot go on (the file is not a plain array, or some element
// does not parse), the exact one reads the file again from the start, skipping the records
// already given, so the caller sees the same records and the same error either way.
import { TokenParser, Tokenizer } from '@streamparser/json';
import { collectHint, COLLECT_EVERY } from './collect-hint.js';
import { InvalidJsonError, UnsupportedInputError } from './errors.js';
import { JsonArraySplitter, type SplitElement } from './json-array-splitter.js';
import { bytesSource, CHUNK_SIZE, concatBytes, utf8Decoder, type ByteSource } from './byte-source.js';
import { keepSpecimen } from './specimens.js';

/** Where the JSON comes from: a file, a zip entry, bytes in memory (byte-source.ts). */
export type JsonSource = ByteSource;

export interface JsonRecord {
  /** Position in the top-level array; 0 for a top-level object. */
  readonly index: number;
  readonly value: unknown;
  /**
   * What the fast reader knows of the record's text, so the checks of each value can be
   * skipped where the text rules a problem out (TextFacts): how deep it nests, ...
   */
  readonly text?: TextFacts;
}

/** What a record's JSON text rules out; each `true` only says a check is needed. */
export interface TextFacts {
  /** How deep its objects and arrays nest (1: an object of plain values). */
  readonly depth: number;
  /**
   * It may hold a lone UTF-16 surrogate. Text decoded from UTF-8 holds none: only a `\u`
   * escape of one (`\uD800` to `\uDFFF`) can write it.
   */
  readonly surrogates: boolean;
  /** It may hold U+2028 or U+2029 (which Gson writes escaped), as such or as a `\u` escape. */
  readonly separators: boolean;
}

/** `\u` escapes looked at one by one in a text; beyond, a text full of them is searched by regular expression. */
const ESCAPES_ONE_BY_ONE = 64;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const SEPARATOR_ESCAPE = /\\u202[89]/;

/**
 * TextFacts of JSON text, but its depth: searches for what is almost never there. A `\u` is
 * common in real sources (JavaScript in a rule writes `\\u5206`), so the few in a text are
 * looked at where they are, not by two regular expressions over all of it (3-4 ms of a
 * 1,000-source import). A `\u` after an escaped backslash counts too: `true` only asks for a check.
 */
function factsOf(text: string, depth: number): TextFacts {
  let surrogates = false;
  let separators = false;
  let seen = 0;
  for (let i = text.indexOf('\\u'); i !== -1; i = text.indexOf('\\u', i + 2)) {
    if (++seen > ESCAPES_ONE_BY_ONE) {
      surrogates = SURROGATE_ESCAPE.test(text);
      separators = SEPARATOR_ESCAPE.test(text);
      break;
    }
    const a = text.charCodeAt(i + 2) | 0x20; // lower case
    const b = text.charCodeAt(i + 3) | 0x20;
    if (a === 0x64 && (b === 0x38 || b === 0x39 || (b >= 0x61 && b <= 0x66)))
      surrogates = true; // d8-df
    else if (a === 0x32 && b === 0x30 && text.charCodeAt(i + 4) === 0x32 && (text.charCodeAt(i + 5) | 1) === 0x39) separators = true; // 2028, 2029
  }
  return { depth, surrogates, separators: separators || text.includes('\u2028') || text.includes('\u2029') };
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

/** Depths the reader measures; a record deeper is reported one deeper, and its reader measures it again. */
const DEPTH_CAP = 1024;

/**
 * How deep `v` nests its objects and arrays (0: a scalar, 1: an object of plain values), at
 * most DEPTH_CAP + 1; -1 when it holds a number beyond 2^53, which JSON.parse may have rounded
 * (the exact parser keeps such an integer as a bigint).
 */
function measure(v: unknown, level = 1): number {
  if (typeof v !== 'object' || v === null) return typeof v === 'number' && !(v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER) ? -1 : 0;
  if (level > DEPTH_CAP) return level;
  let depth = level;
  if (Array.isArray(v)) {
    for (const x of v) {
      if (typeof x !== 'object' && typeof x !== 'number') continue;
      const d = measure(x, level + 1);
      if (d < 0) return -1;
      if (d > depth) depth = d;
    }
  } else {
    for (const k in v) {
      const x = (v as Record<string, unknown>)[k];
      if (typeof x !== 'object' && typeof x !== 'number') continue;
      const d = measure(x, level + 1);
      if (d < 0) return -1;
      if (d > depth) depth = d;
    }
  }
  return depth;
}

interface Group {
  readonly values: unknown[];
  readonly depths: number[];
  /** The group's text's facts (factsOf), depth aside. */
  readonly facts: TextFacts;
}

/**
 * The first `end` pending bytes (whole elements and the commas between them; `closed`: and the
 * array's closing `]`) parsed by one JSON.parse; undefined when they are not UTF-8, do not parse,
 * or a number in them needs the exact parser. Parsing is the proof that the bytes were cut
 * between elements: a cut inside a string or a nested value leaves text that cannot parse.
 */
function parseGroup(decoder: InstanceType<typeof TextDecoder>, pending: Pending, end: number, closed: boolean): Group | undefined {
  try {
    const text = pending.text(decoder, end, closed);
    const values = JSON.parse(text) as unknown[];
    const depths = new Array<number>(values.length);
    for (let k = 0; k < values.length; k++) if ((depths[k] = measure(values[k])) < 0) return undefined;
    return { values, depths, facts: factsOf(text, 0) };
  } catch {
    return undefined;
  }
}

/**
 * The bytes read but not yet parsed (the start of an unfinished element, then the next chunk),
 * after a `[`, in one buffer reused for the whole file: a group is decoded with its brackets in
 * place, one string that JSON.parse reads as it is (a `[` + text + `]` concatenation is first
 * copied whole), and the bytes after a cut move to the front instead of into a new array.
 */
class Pending {
  private buf = new Uint8Array(2 * CHUNK_SIZE);
  /** How many bytes are pending (after the `[`). */
  private count = 0;

  constructor() {
    this.buf[0] = 0x5b;
  }

  get length(): number {
    return this.count;
  }

  /** The pending bytes: a view, valid until the next append or drop. */
  get bytes(): Uint8Array {
    return this.buf.subarray(1, 1 + this.count);
  }

  append(chunk: Uint8Array): void {
    const need = 2 + this.count + chunk.length; // the `[`, the bytes, room for a `]`
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.buf.length));
      grown.set(this.buf.subarray(0, 1 + this.count));
      this.buf = grown;
    }
    this.buf.set(chunk, 1 + this.count);
    this.count += chunk.length;
  }

  /** Drops every pending byte. */
  clear(): void {
    this.count = 0;
  }

  /** Drops the pending bytes before `from`. */
  drop(from: number): void {
    this.buf.copyWithin(1, 1 + from, 1 + this.count);
    this.count -= from;
  }

  /** The text of `[` and the first `end` pending bytes, then `]` (`closed`: they end with the array's own). */
  text(decoder: InstanceType<typeof TextDecoder>, end: number, closed: boolean): string {
    if (closed) return decoder.decode(this.buf.subarray(0, 1 + end));
    const at = 1 + end;
    const saved = this.buf[at]!;
    this.buf[at] = 0x5d;
    try {
      return decoder.decode(this.buf.subarray(0, at + 1));
    } finally {
      this.buf[at] = saved;
    }
  }
}

/**
 * The records of a parsed group, numbered from `index`; returns the index after them. Records
 * of one depth share their facts (the rest are the group's): one object fewer per record.
 */
function* give(group: Group, index: number): Generator<JsonRecord, number> {
  const { surrogates, separators } = group.facts;
  const byDepth = new Map<number, TextFacts>();
  for (let k = 0; k < group.values.length; k++) {
    const depth = group.depths[k]!;
    let text = byDepth.get(depth);
    if (text === undefined) byDepth.set(depth, (text = { depth, surrogates, separators }));
    yield { index: index++, value: group.values[k], text };
  }
  return index;
}

const isSpaceByte = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Where `buf` (which begins at an element) may be cut between two elements that are objects:
 * the ends of the last few `}` followed by `,` and `{` (white space aside), last first, as
 * [end of the `}`, start of the next element]. A candidate only: a string or a nested array
 * may hold the same bytes, and parseGroup tells them apart. `indent`: in a file written with
 * line breaks, the white space before each element after its line break (-1 otherwise); a
 * candidate must then have that: a string holds no line break, and a nested array's elements
 * are indented further.
 */
function cutCandidates(buf: Uint8Array, max: number, indent: number): [number, number][] {
  const out: [number, number][] = [];
  for (let c = buf.lastIndexOf(0x7d); c > 0 && out.length < max; c = buf.lastIndexOf(0x7d, c - 1)) {
    let j = c + 1;
    while (isSpaceByte(buf[j])) j++;
    if (buf[j] !== 0x2c) continue;
    j++;
    let lineStart = -1;
    for (; isSpaceByte(buf[j]); j++) if (buf[j] === 0x0a) lineStart = j + 1;
    if (buf[j] !== 0x7b) continue;
    if (indent >= 0 && j - lineStart !== indent) continue;
    out.push([c + 1, j]);
  }
  return out;
}

/** The indent of elements in a file written with line breaks, from the white space before its first element; -1 without a line break. */
function indentOf(space: Uint8Array): number {
  const newline = space.lastIndexOf(0x0a);
  return newline === -1 ? -1 : space.length - newline - 1;
}

/** Candidate cuts tried per chunk before the chunk is split byte by byte instead. */
const CUT_TRIES = 3;
/** An unfinished element longer than this is read byte by byte from there on, not searched for cuts again with every chunk. */
const CARRY_LIMIT = 1 << 20;

/**
 * The values of the elements from `from` to the end, when those lie in `chunk` itself and parse
 * together as one array; undefined otherwise. The first element may have begun in an earlier
 * chunk: it is left out (from 1) and parsed on its own.
 */
function parseTogether(
  decoder: InstanceType<typeof TextDecoder>,
  chunk: Uint8Array,
  elements: readonly SplitElement[],
): { from: number; values: unknown[]; facts: TextFacts } | undefined {
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
    return values.length === elements.length - from ? { from, values, facts: factsOf(text, 0) } : undefined;
  } catch {
    return undefined;
  }
}

export class JsonRecordReader {
  readonly source: JsonSource;
  /** What the file holds at the top level, known once reading has begun. */
  root: JsonRoot = 'unread';
  bytesRead = 0;
  /**
   * Bytes read since the last record was given: a record is held whole while it is read, so the
   * source's recordLimit (a zip entry's) stops a huge one before its memory is spent.
   */
  private sinceRecord = 0;
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
    for (const rec of this.allRecords(onBytes)) {
      this.sinceRecord = 0;
      yield rec;
    }
  }

  private *allRecords(onBytes?: (bytesRead: number) => void): Generator<JsonRecord> {
    const given = yield* this.fastRecords(onBytes);
    if (given === ALL) return;
    this.bytesRead = 0;
    this.sinceRecord = 0;
    this.root = 'unread';
    for (const rec of this.exactRecords(onBytes)) if (rec.index >= given) yield rec;
  }

  /**
   * The fast reader: ALL when it read the whole file, else how many records it gave before it
   * stopped. Each chunk, after what was left of the one before, is cut after the last element
   * it ends (cutCandidates) and parsed at once; a chunk where no cut parses is split byte by
   * byte (JsonArraySplitter), and so is all that follows the closing `]` or an element too long
   * to carry.
   */
  private *fastRecords(onBytes?: (bytesRead: number) => void): Generator<JsonRecord, number> {
    const decoder = utf8Decoder();
    let index = 0;
    let first = true;
    /** The bytes after the last cut (the start of an unfinished element) and the chunk read since. */
    const pending = new Pending();
    /** Where the pending bytes begin: right after the `[`, or after a `,`. */
    let after: '[' | ',' = '[';
    /** Set once the reader splits byte by byte for good. */
    let splitter: JsonArraySplitter | undefined;
    /** How elements are indented (cutCandidates), known at the first element. */
    let indent: number | undefined;
    for (let chunk of this.chunks()) {
      if (first) {
        if (this.bytesRead === chunk.length && BOM.every((b, k) => chunk[k] === b)) chunk = chunk.subarray(3);
        let i = 0;
        while (i < chunk.length && isSpace(chunk[i]!)) i++;
        if (i === chunk.length) continue;
        if (chunk[i] !== 0x5b) return index; // an object, a scalar, or junk: the exact reader says which
        first = false;
        this.root = 'array';
        chunk = chunk.subarray(i + 1);
      }
      if (splitter) {
        const r = yield* this.splitElements(splitter, chunk, decoder, index);
        index = r.index;
        if (!r.ok) return index;
        onBytes?.(this.bytesRead);
        continue;
      }
      pending.append(chunk); // a copy: the source may reuse the chunk
      const buf = pending.bytes;
      if (indent === undefined) {
        let k = 0;
        while (k < buf.length && isSpace(buf[k]!)) k++;
        if (k < buf.length) indent = indentOf(buf.subarray(0, k));
      }
      const cuts = indent === undefined ? [] : cutCandidates(buf, CUT_TRIES, indent);
      let group: Group | undefined;
      for (const [end, next] of cuts) {
        group = parseGroup(decoder, pending, end, false);
        if (group === undefined) continue;
        pending.drop(next);
        index = yield* give(group, index);
        after = ',';
        break;
      }
      if (group === undefined && (cuts.length > 0 || buf.length > CARRY_LIMIT)) {
        // No cut parses (a string holds `},{`, or the elements are not objects), or an element is
        // too long to carry: these bytes are split byte by byte.
        const s = new JsonArraySplitter({ after });
        const r = yield* this.splitElements(s, buf.slice(), decoder, index);
        pending.clear();
        if (r.index > index) after = ',';
        index = r.index;
        if (!r.ok) return index;
        if (s.complete || buf.length > CARRY_LIMIT)
          splitter = s; // it checks what follows the `]`, or reads the long element on
        else pending.append(s.takeRest());
      }
      onBytes?.(this.bytesRead);
    }
    if (first) return index;
    if (splitter) return splitter.complete ? ALL : index;
    // The last elements and the closing `]`.
    const group = parseGroup(decoder, pending, pending.length, true);
    if (group !== undefined) {
      yield* give(group, index);
      return ALL;
    }
    const s = new JsonArraySplitter({ after });
    const r = yield* this.splitElements(s, pending.bytes.slice(), decoder, index);
    return r.ok && s.complete ? ALL : r.index;
  }

  /**
   * The records of the elements `splitter` finds in `bytes`: those that lie whole in them parsed
   * together (parseTogether), any other on its own. Not ok when the bytes are not a plain array
   * or an element does not parse: the exact reader takes over.
   */
  private *splitElements(
    splitter: JsonArraySplitter,
    bytes: Uint8Array,
    decoder: InstanceType<typeof TextDecoder>,
    index: number,
  ): Generator<JsonRecord, { index: number; ok: boolean }> {
    const elements = splitter.push(bytes);
    if (!elements) return { index, ok: false };
    const group = parseTogether(decoder, bytes, elements);
    for (let k = 0; k < elements.length; k++) {
      const el = elements[k]!;
      let value: unknown;
      let facts: TextFacts;
      if (group !== undefined && k >= group.from) {
        value = group.values[k - group.from];
        facts = group.facts;
      } else {
        try {
          if (el.longNumber) {
            value = parseExact(el.bytes);
            facts = { depth: 0, surrogates: true, separators: true };
          } else {
            const text = decoder.decode(el.bytes);
            value = JSON.parse(text);
            facts = factsOf(text, 0);
          }
        } catch {
          return { index, ok: false };
        }
      }
      yield { index: index++, value, text: { depth: el.depth, surrogates: facts.surrogates, separators: facts.separators } };
    }
    return { index, ok: true };
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

  /** The source's chunks, counted; Bun is asked to collect every COLLECT_EVERY bytes (collect-hint.ts). */
  private *chunks(): Generator<Uint8Array> {
    let nextHint = this.bytesRead + COLLECT_EVERY;
    const limit = this.source.recordLimit;
    for (const chunk of this.source.chunks()) {
      this.bytesRead += chunk.length;
      this.sinceRecord += chunk.length;
      if (limit && this.sinceRecord > limit.bytes) throw limit.error(this.sinceRecord);
      if (this.bytesRead >= nextHint) {
        nextHint = this.bytesRead + COLLECT_EVERY;
        collectHint();
      }
      yield chunk;
    }
  }

  /** The parser's complaint as an InvalidJsonError at the right line and column. */
  private invalid(e: unknown, skip: number, lastToken: number): unknown {
    if (!(e instanceof Error) || e instanceof InvalidJsonError) return e;
    const absolute = /absolute position "(\d+)"/.exec(e.message);
    const offset = Math.min(this.size, (absolute ? Number(absolute[1]) : lastToken) + skip);
    const { line, column } = lineAndColumn(this.source, offset);
    return new InvalidJsonError(
      this.source.name,
      line,
      column,
      offset,
      this.secret ? 'syntax error (the text is not shown: the file holds secrets)' : explain(e.message),
    );
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
    tail.push(new Uint8Array(chunk.subarray(Math.max(0, lineStart - base), end))); // a copy: a Buffer's slice is a view
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

/**
 * A plainer wording of the parser's message. It never quotes the file's text beyond JSON's own
 * punctuation: the string or number where parsing stopped may be a source's header (a bearer
 * token), a cookie, a login script or a server's config, so it is named by its kind only.
 */
function explain(message: string): string {
  const token = /Unexpected (?:partial )?(\w+) \((.*)\) in state (\w+)/.exec(message);
  if (token) {
    const want = EXPECTED[token[3]!];
    return `unexpected ${tokenKind(token[1]!, token[2]!)}${want ? `, expected ${want}` : ''}`;
  }
  const char = /Unexpected "(.*)" at chunk position/.exec(message);
  if (char) return `unexpected ${PUNCTUATION.test(char[1]!) ? `character ${JSON.stringify(char[1])}` : 'text (not a JSON value)'}`;
  if (/end/i.test(message)) return 'unexpected end of data';
  return 'syntax error';
}

/** JSON's structural characters: the only text of the file an error quotes. */
const PUNCTUATION = /^[[\]{}:,]$/;

function tokenKind(kind: string, text: string): string {
  if (kind === 'STRING') return 'string';
  if (kind === 'NUMBER') return 'number';
  if (PUNCTUATION.test(text.replace(/^"|"$/g, ''))) return text;
  if (/^(TRUE|FALSE|NULL)$/.test(kind)) return kind.toLowerCase();
  return 'value';
}

keepSpecimen(new JsonRecordReader(bytesSource('', new Uint8Array(0)), { secret: false }));
