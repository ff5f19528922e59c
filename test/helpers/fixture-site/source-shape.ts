// The app's book source JSON (a 3.x export entry) and what a fixture source promises to find.
import type { Book, Chapter } from './model.js';

export interface BookSourceJson {
  bookSourceUrl: string;
  bookSourceName: string;
  bookSourceGroup?: string;
  bookSourceType: number;
  bookSourceComment?: string;
  bookUrlPattern?: string;
  customOrder: number;
  enabled: boolean;
  enabledExplore: boolean;
  enabledCookieJar?: boolean;
  concurrentRate?: string;
  header?: string;
  loginUrl?: string;
  loginUi?: string;
  exploreUrl?: string;
  lastUpdateTime: number;
  respondTime: number;
  weight: number;
  searchUrl?: string;
  ruleExplore?: Record<string, string>;
  ruleSearch?: Record<string, string>;
  ruleBookInfo?: Record<string, string>;
  ruleToc?: Record<string, string>;
  ruleContent?: Record<string, string>;
}

/** Fields of a search hit or book, named as the app's SearchBook/Book name them. */
export type BookField = 'name' | 'author' | 'kind' | 'intro' | 'coverUrl' | 'wordCount' | 'latestChapterTitle';

/** rule-engine.md §9's tiers: T0 no JS, T1 plain JS, T2 `java.*` helpers, T3 login (or browser). */
export type Tier = 'T0' | 'T1' | 'T2' | 'T3';

export interface Expect {
  /** Absolute URL the app stores as the book's `bookUrl`. */
  bookUrl(b: Book): string;
  /** Absolute URL of a readable chapter (its first page). */
  chapterUrl(b: Book, c: Chapter): string;
  /** What a search hit carries on this shape (name and bookUrl always). */
  readonly searchFields: readonly BookField[];
  /** What the book-info step fills. */
  readonly infoFields: readonly BookField[];
  /** What the TOC carries: volumes listed, VIP and pay marks. */
  readonly toc: { readonly volumes: boolean; readonly vip: boolean; readonly pay: boolean };
  /**
   * The content rule gives plain text (a JSON string, XPath text nodes), not HTML: the app's
   * HtmlFormatter then leaves the first line unindented (it only replaces leading white space).
   */
  readonly plainText?: boolean;
  /** A header the source needs in `caches` as `loginHeader_<bookSourceUrl>` (what login() stores). */
  readonly loginHeader?: Readonly<Record<string, string>>;
}

export interface FixtureSource {
  /** Stable name, also the `#` tag of its bookSourceUrl. */
  readonly id: string;
  /** The site path prefix it reads. */
  readonly shape: string;
  readonly tier: Tier;
  /** The rule kinds it exercises (for coverage reports and test names). */
  readonly kinds: readonly string[];
  readonly source: BookSourceJson;
  readonly expect: Expect;
}
