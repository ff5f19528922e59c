// Finds the elements of a top-level JSON array in a stream of bytes without parsing them, so
// each element can be handed on its own to the engine's JSON.parse: streaming (one element in
// memory at a time) at close to the speed of native parsing. It checks only what it must to
// find the boundaries (strings, escapes, nesting, commas); whether an element is valid JSON is
// for the parser of that element to say. Anything it cannot split cleanly is reported as
// `undefined` from `push`, and the caller falls back to the exact token-by-token reader.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

/** Integers of 16 or more digits may exceed 2^53: such an element needs the exact parser. */
const LONG_DIGIT_RUN = 16;

export interface SplitElement {
  readonly bytes: Uint8Array;
  /** True when a number in it has 16 or more digits (JSON.parse would round a 64-bit integer). */
  readonly longNumber: boolean;
}

const enum State {
  /** Before the top-level `[`. */
  Start,
  /** After `[` or a `,`: an element (or, after `[`, the closing `]`) comes next. */
  BeforeElement,
  /** Inside an element. */
  InElement,
  /** After an element: `,` or `]` comes next. */
  AfterElement,
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
  private empty = true;
  /** The element in progress: pieces of earlier chunks, and where it starts in the current one. */
  private pieces: Uint8Array[] = [];

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
          i--; // read this byte again as the element's first
          continue;
        case State.AfterElement:
          if (isSpace(b)) continue;
          if (b === COMMA) this.state = State.BeforeElement;
          else if (b === CLOSE_ARRAY) this.state = State.End;
          else return undefined;
          continue;
        case State.End:
          if (!isSpace(b)) return undefined;
          continue;
        case State.InElement:
          break;
      }
      if (this.inString) {
        // Jump to the next quote; it ends the string unless an odd run of backslashes escapes it.
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        if (b === BACKSLASH) {
          this.escaped = true;
          continue;
        }
        if (b !== QUOTE) {
          const q = chunk.indexOf(QUOTE, i);
          const bs = chunk.indexOf(BACKSLASH, i);
          const next = q === -1 ? bs : bs === -1 ? q : Math.min(q, bs);
          if (next === -1) {
            i = chunk.length - 1;
            continue;
          }
          i = next - 1;
          continue;
        }
        this.inString = false;
        continue;
      }
      if (isDigit(b)) {
        if (++this.digitRun >= LONG_DIGIT_RUN) this.longNumber = true;
        continue;
      }
      this.digitRun = 0;
      if (b === QUOTE) {
        this.inString = true;
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        this.depth++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (this.depth === 0) {
          if (b !== CLOSE_ARRAY) return undefined;
          out.push(this.finish(chunk, start, i));
          this.state = State.End;
          continue;
        }
        this.depth--;
      } else if (b === COMMA && this.depth === 0) {
        out.push(this.finish(chunk, start, i));
        this.state = State.BeforeElement;
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

  private finish(chunk: Uint8Array, start: number, end: number): SplitElement {
    const tail = chunk.subarray(start, end);
    let bytes: Uint8Array;
    if (this.pieces.length === 0) {
      bytes = tail;
    } else {
      bytes = Buffer.concat([...this.pieces, tail]);
      this.pieces = [];
    }
    return { bytes, longNumber: this.longNumber };
  }
}
