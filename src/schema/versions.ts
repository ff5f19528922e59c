// Every version of the app's main line, 49 to 75, as a chain of small changes from the declared
// baseline 62 (v62.ts, the spec's declaration): each entry says which neighbour it is built from
// (62 and up: the version below; under 62: the version above) and what differs. Facts from the
// app's exported Room schemas (room-schemas/legado/<N>.json) and schema-history.md.
import type { SchemaChanges, ViewChanges } from './changes.js';
import { opt, req } from './column.js';

export interface VersionStep {
  readonly from: number;
  readonly tables?: SchemaChanges;
  readonly views?: ViewChanges;
}

/** The query of the app's BookSourcePart view (75), exactly as declared: line breaks and trailing spaces matter to Room. */
const BOOK_SOURCES_PART =
  'select bookSourceUrl, bookSourceName, bookSourceGroup, customOrder, enabled, enabledExplore, \n' +
  "    (loginUrl is not null and trim(loginUrl) <> '') hasLoginUrl, lastUpdateTime, respondTime, weight, \n" +
  "    (exploreUrl is not null and trim(exploreUrl) <> '') hasExploreUrl \n" +
  '    from book_sources';

export const STEPS = {
  // ---- after 62: what each version adds to the one below it ----
  63: { from: 62, tables: { book_groups: { addAfter: { order: { enableRefresh: req.bool('1') } }, defaults: { show: '1' } } } },
  64: {
    from: 63,
    tables: {
      book_sources: {
        addAfter: { exploreUrl: { exploreScreen: opt.text() } },
        defaults: { customOrder: '0', enabled: '1', enabledExplore: '1' },
      },
    },
  },
  // 64 -> 65 deletes enabledReview (@DeleteColumn).
  65: {
    from: 64,
    tables: {
      book_sources: { addAfter: { enabledExplore: { jsLib: opt.text() } }, drop: ['enabledReview'] },
      rssSources: { addAfter: { variableComment: { jsLib: opt.text() } } },
    },
  },
  66: { from: 65, tables: { httpTTS: { addAfter: { header: { jsLib: opt.text() } } } } },
  67: {
    from: 66,
    tables: {
      searchBooks: {
        addAfter: { originOrder: { chapterWordCountText: opt.text(), chapterWordCount: req.int('-1'), respondTime: req.int('-1') } },
      },
    },
  },
  68: { from: 67, tables: { replace_rules: { addAfter: { scopeContent: { excludeScope: opt.text() } } } } },
  // 69 changed only JSON inside rule text (ruleToc.formatJs): same structure, same hash.
  69: { from: 68 },
  70: { from: 69, tables: { rssSources: { addAfter: { contentBlacklist: { shouldOverrideUrlLoading: opt.text() } } } } },
  71: { from: 70, tables: { books: { addAfter: { readConfig: { syncTime: req.long('0') } } } } },
  72: {
    from: 71,
    tables: {
      rssArticles: { addAfter: { image: { group: req.text("'默认分组'") } } },
      rssStars: { addAfter: { image: { group: req.text("'默认分组'") } } },
    },
  },
  73: { from: 72, tables: { chapters: { addAfter: { tag: { wordCount: opt.text() } } } } },
  74: { from: 73, tables: { rssReadRecords: { addAfter: { record: { title: opt.text(), readTime: opt.long() } } } } },
  75: { from: 74, views: { book_sources_part: BOOK_SOURCES_PART } },

  // ---- before 62: what each version lacks, or has otherwise, compared with the one above ----
  61: { from: 62, tables: { servers: 'absent' } },
  60: { from: 61, tables: { dictRules: { drop: ['sortNumber'], defaults: { enabled: null } } } },
  59: { from: 60, tables: { dictRules: 'absent' } },
  58: {
    from: 59,
    tables: {
      rssSources: {
        drop: ['contentWhitelist', 'contentBlacklist'],
        defaults: { articleStyle: null, enableJs: null, loadWithBaseUrl: null, customOrder: null },
      },
    },
  },
  57: { from: 58, tables: { book_groups: { drop: ['bookSort'] } } },
  56: { from: 57, tables: { rssSources: { drop: ['injectJs'] } } },
  // 56 only bumped the number: same structure, same hash as 55.
  55: { from: 56 },
  // 55 fixed books.origin's default and put type's back; Migration_54_55 rewrote type as bits.
  54: { from: 55, tables: { books: { defaults: { origin: "''", type: '1' }, appRules: { type: { min: null, entityDefault: null } } } } },
  53: {
    from: 54,
    tables: {
      books: { defaults: { type: '0' } },
      book_sources: { drop: ['coverDecodeJs'] },
      rssSources: { drop: ['coverDecodeJs', 'lastUpdateTime'] },
    },
  },
  52: { from: 53, tables: { book_sources: { drop: ['enabledReview', 'ruleReview'] } } },
  51: { from: 52, tables: { txtTocRules: { drop: ['example'] } } },
  50: { from: 51, tables: { readRecord: { drop: ['lastRead'], defaults: { readTime: null } } } },
  49: { from: 50, tables: { book_sources: { drop: ['variableComment'] }, rssSources: { drop: ['variableComment'] } } },
} as const satisfies Readonly<Record<number, VersionStep>>;
