// Failures of a source's flows (search, explore, book info, TOC, content). Each names the source
// (name and bookSourceUrl), the rule or field concerned (`ruleToc.chapterList`) and, where there
// is one, the page; the app's own message (目录为空, 内容为空) is kept in the text.
import { LegadoStoreError, type ErrorCode } from '../../errors.js';

export interface SourceName {
  readonly bookSourceName: string;
  readonly bookSourceUrl: string;
}

/** A URL as written, less a `user:password@` it may carry. */
const printable = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, '$1');

const where = (source: SourceName, rule: string, page: string | undefined): string =>
  `source ${JSON.stringify(source.bookSourceName)} (${printable(source.bookSourceUrl)}): ${rule}${page ? ` at ${printable(page)}` : ''}`;

/** Base of the flows' errors: which source, which rule, which page. */
export class SourceFlowError extends LegadoStoreError {
  readonly sourceName: string;
  readonly sourceUrl: string;
  readonly page: string | undefined;
  constructor(
    code: ErrorCode,
    source: SourceName,
    readonly rule: string,
    page: string | undefined,
    what: string,
  ) {
    super(code, `${where(source, rule, page)}: ${what}`);
    this.sourceName = source.bookSourceName;
    this.sourceUrl = source.bookSourceUrl;
    this.page = page;
  }
}

/** The TOC came out empty (the app's TocEmptyException): the list rule matched nothing with a title. */
export class TocEmptyError extends SourceFlowError {
  constructor(source: SourceName, page: string | undefined) {
    super('TOC_EMPTY', source, 'ruleToc.chapterList', page, '目录为空 (no chapter with a title was found)');
  }
}

/** A chapter that is not a volume came out without text (the app's ContentEmptyException, 内容为空). */
export class ContentEmptyError extends SourceFlowError {
  constructor(source: SourceName, page: string | undefined) {
    super('CONTENT_EMPTY', source, 'ruleContent.content', page, '内容为空 (the chapter text is empty)');
  }
}

/** The source lacks what a flow needs: no searchUrl (搜索url不能为空), no download URL of a file source. */
export class SourceIncompleteError extends SourceFlowError {
  constructor(source: SourceName, rule: string, page: string | undefined, what: string) {
    super('SOURCE_INCOMPLETE', source, rule, page, what);
  }
}

/**
 * A step of a flow failed: a rule that cannot be read, a script, a fetch. It keeps the cause's
 * code (`BAD_RULE`, `SCRIPT_TIMEOUT`, `FETCH_FAILED`...) and adds the source and the rule; the
 * caller's signal timing out is `FETCH_TIMEOUT`; another failure without a code of ours is `SOURCE_FAILED`.
 */
export class SourceStepError extends SourceFlowError {
  constructor(source: SourceName, rule: string, page: string | undefined, cause: unknown) {
    const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
    const code: ErrorCode = cause instanceof LegadoStoreError ? cause.code : timedOut ? 'FETCH_TIMEOUT' : 'SOURCE_FAILED';
    super(code, source, rule, page, cause instanceof Error ? cause.message : String(cause));
    this.cause = cause;
  }
}
