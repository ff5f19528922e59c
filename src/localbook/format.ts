// src/localbook/format.ts — the contract between the local-book API and each file format.
// Create this file with exactly this content (two helpers add it in parallel; identical
// additions merge cleanly). Change it only by adding optional members.

/** A book file read by range, so a large file is never held or decoded whole. */
export interface BookFile {
  /** The file's own name (the app's `originName`), e.g. `《三体》作者：刘慈欣.txt`. */
  readonly fileName: string;
  /** Size in bytes. */
  readonly size: number;
  /** Bytes [start, end) of the file (end clamped to size). */
  read(start: number, end: number): Uint8Array;
}

/** One chapter as a format finds it, in the chapters table's column names. */
export interface ParsedChapter {
  readonly index: number;
  readonly title: string;
  /** The app's chapter url: TXT: 16-char MD5 of originName + index + title; EPUB: the XHTML href (as the app sets it). */
  readonly url: string;
  readonly isVolume?: boolean;
  /** TXT: byte offsets into the file. */
  readonly start?: number;
  readonly end?: number;
  /** EPUB: fragment ids bounding the chapter within its XHTML file, as the app's EpubFile sets them. */
  readonly startFragmentId?: string;
  readonly endFragmentId?: string;
  readonly wordCount?: string;
}

/** What a format reads from a file: the book's own fields and its chapters. */
export interface ParsedBook {
  readonly name: string;
  readonly author: string;
  readonly intro?: string;
  /** TXT: the charset found (e.g. 'UTF-8', 'GBK'); EPUB: left out. */
  readonly charset?: string;
  /** TXT: the winning TOC rule's regex (the app's `tocUrl`); '' when none. */
  readonly tocUrl?: string;
  /** A cover image found inside the file. */
  readonly cover?: { readonly bytes: Uint8Array; readonly mediaType: string };
  readonly chapters: readonly ParsedChapter[];
  /** Lines for the report: rules skipped, entries not understood, ... */
  readonly notes: readonly string[];
}

export interface ParseOptions {
  /** TXT only: the enabled TXT TOC rules, as rows of the txtTocRules table. */
  readonly tocRules?: readonly {
    readonly name: string;
    readonly rule: string;
    readonly serialNumber: number;
    readonly enable: boolean;
    readonly id?: number;
  }[];
  /** The charset to use instead of detecting one (a book being re-split). */
  readonly charset?: string;
}

export interface BookFormat {
  /** Lower-case extensions without the dot, e.g. ['txt']. */
  readonly extensions: readonly string[];
  parse(file: BookFile, options?: ParseOptions): ParsedBook;
  /** The chapter's text as the app reads it before replace rules (title line left out, blank lines as the app leaves them). */
  chapterText(file: BookFile, book: { readonly charset?: string; readonly name?: string }, chapter: ParsedChapter): string;
}
