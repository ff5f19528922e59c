// Finds the elements of a top-level JSON array in a stream of bytes without parsing them, so
// each element can be handed on its own to the engine's JSON.parse: streaming (one element in
// memory at a time) at close to the speed of native parsing. It checks only what it must to
// find the boundaries (strings, escapes, nesting, commas); whether an element is valid JSON is
// for the parser of that element to say. Anything it cannot split cleanly is reported as
// `undefined` from `push`, and the caller falls back to the exact token-by-token reader.

import { concatBytes } from './byte-source.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Integers of 16 or more digits may exceed 2^53: such an element needs the exact parser. */
const LONG_DIGIT_RUN = 16;

export interface SplitElement {
  readonly bytes: Uint8Array;
  /** True when a number in it has 16 or more digits (JSON.parse would round a 64-bit integer). */
  readonly longNumber: boolean;
  /** How deep its objects and arrays nest (1: an object of plain values). */
  readonly depth: number;
}

enum State {
  /** Before the top-level `[`. */
  Start,
  /** After `[` or a `,`: an element (or, after `[`, the closing `]`) comes next. */
  BeforeElement,
  /** Inside an element. */
  InElement,
  /** After the closing `]`: only white space may follow. */
  End,
}

export class JsonArraySplitter {
  private state = State.Start;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private digitRun = 0;
  private longNumber = false;
  private maxDepth = 0;
  private empty = true;
  /** The element in progress: pieces of earlier chunks, and where it starts in the current one. */
  private pieces: Uint8Array[] = [];

  /** `after`: the bytes pushed begin after the array's `[`, or after a `,` (an element must come), not at the start. */
  constructor(options: { readonly after?: '[' | ',' } = {}) {
    if (options.after !== undefined) this.state = State.BeforeElement;
    if (options.after === ',') this.empty = false;
  }

  /** The bytes of the element in progress (empty between elements), which the splitter then forgets. */
  takeRest(): Uint8Array {
    const rest = this.state === State.InElement ? concatBytes(this.pieces) : new Uint8Array(0);
    this.pieces = [];
    return rest;
  }

  /** Elements completed by this chunk, or undefined when the bytes are not a plain JSON array. */
  push(chunk: Uint8Array): SplitElement[] | undefined {
    const out: SplitElement[] = [];
    let start = this.state === State.InElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      switch (this.state) {
        case State.Start:
          if (b === OPEN_ARRAY) this.state = State.BeforeElement;
          else if (!isSpace(b)) return undefined;
          continue;
        case State.BeforeElement:
          if (isSpace(b)) continue;
          if (b === CLOSE_ARRAY && this.empty) {
            this.state = State.End;
            continue;
          }
          if (b === COMMA || b === CLOSE_ARRAY) return undefined; // an empty element: `[,` or `,]`
          this.state = State.InElement;
          this.empty = false;
          start = i;
          this.depth = 0;
          this.digitRun = 0;
          this.longNumber = false;
          this.maxDepth = 0;
          i--; // read this byte again as the element's first
          continue;
        case State.End:
          if (!isSpace(b)) return undefined;
          continue;
        case State.InElement: {
          const stop = this.scan(chunk, i);
          if (stop === -1) {
            i = chunk.length;
            continue;
          }
          if (stop === -2) return undefined;
          out.push(this.finish(chunk, start, stop));
          this.state = chunk[stop] === COMMA ? State.BeforeElement : State.End;
          i = stop;
          continue;
        }
      }
    }
    // A copy: the caller may reuse the chunk's memory for the next read.
    if (this.state === State.InElement) this.pieces.push(new Uint8Array(chunk.subarray(start)));
    return out;
  }

  /** True when the bytes so far form a complete array (what follows `]` was only white space). */
  get complete(): boolean {
    return this.state === State.End;
  }

  /**
   * Reads an element from `from` on: the index of the `,` or `]` that ends it, -1 when the chunk
   * ends first (the state is kept for the next chunk), -2 for a `}` closing nothing. One tight
   * loop over locals, since every byte of the file passes through here.
   */
  private scan(chunk: Uint8Array, from: number): number {
    let { depth, inString, escaped, digitRun, longNumber, maxDepth } = this;
    let result = -1;
    const n = chunk.length;
    let backslashAt = -1; // the next backslash at or after i (n: none), found lazily
    for (let i = from; i < n; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
        else {
          // Nothing inside a string matters but its quote and backslashes: jump to the next one.
          if (backslashAt < i) {
            backslashAt = chunk.indexOf(BACKSLASH, i);
            if (backslashAt === -1) backslashAt = n;
          }
          const quoteAt = chunk.indexOf(QUOTE, i);
          i = Math.min(quoteAt === -1 ? n : quoteAt, backslashAt) - 1;
        }
        continue;
      }
      if (b >= 0x30 && b <= 0x39) {
        if (++digitRun >= LONG_DIGIT_RUN) longNumber = true;
        continue;
      }
      digitRun = 0;
      if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (++depth > maxDepth) maxDepth = depth;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (depth === 0) {
          result = b === CLOSE_ARRAY ? i : -2;
          break;
        }
        depth--;
      } else if (b === COMMA && depth === 0) {
        result = i;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.digitRun = digitRun;
    this.longNumber = longNumber;
    this.maxDepth = maxDepth;
    return result;
  }

  private finish(chunk: Uint8Array, start: number, end: number): SplitElement {
    const tail = chunk.subarray(start, end);
    let bytes: Uint8Array;
    if (this.pieces.length === 0) {
      bytes = tail;
    } else {
      bytes = concatBytes([...this.pieces, tail]);
      this.pieces = [];
    }
    return { bytes, longNumber: this.longNumber, depth: this.maxDepth };
  }
}
