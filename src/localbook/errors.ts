// Errors of local books: a file that is not a book of its format, a book that is not there.
import { LegadoStoreError } from '../errors.js';

export type BookFileProblem = 'empty' | 'binary' | 'extension' | 'no-chapters' | 'unreadable';

/** A book file that cannot be added: names the file and what is wrong with it. */
export class BookFileError extends LegadoStoreError {
  constructor(
    readonly fileName: string,
    readonly problem: BookFileProblem,
    detail: string,
  ) {
    super('BAD_BOOK_FILE', `${JSON.stringify(fileName)}: ${detail}`);
  }
}

/** No local book with that bookUrl or name in the store, or no chapter with that index. */
export class UnknownBookError extends LegadoStoreError {
  constructor(
    readonly book: string,
    detail: string,
  ) {
    super('UNKNOWN_BOOK', detail);
  }
}

/** A user's rule, as an error names it. */
export interface RuleRef {
  readonly kind: 'TOC rule' | 'replace rule';
  readonly name: string;
  readonly id?: number | string | undefined;
  readonly pattern: string;
}

/** A TOC or replace rule that ran past its time limit: stopped (inside a match where the host allows), named. */
export class RuleTimeoutError extends LegadoStoreError {
  readonly rule: RuleRef;
  readonly limitMs: number;
  constructor(rule: RuleRef, limitMs: number) {
    const pattern = rule.pattern.length > 200 ? `${rule.pattern.slice(0, 197)}...` : rule.pattern;
    super(
      'RULE_TIMEOUT',
      `${rule.kind} ${JSON.stringify(rule.name)}${rule.id === undefined ? '' : ` (id ${rule.id})`} ${JSON.stringify(pattern)}: stopped after its time limit of ${limitMs} ms`,
    );
    this.rule = rule;
    this.limitMs = limitMs;
  }
}

/** The thread that runs the users' rules failed without an answer (it ran out of memory, or never started). */
export class RuleThreadError extends LegadoStoreError {
  constructor(what: string) {
    super('RULE_THREAD_FAILED', `the rule thread ${what}; nothing was stored`);
  }
}
