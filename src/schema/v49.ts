// Schema version 49 is not a second copy of the tables: it is version 62 with the differences
// of spec section 9 applied (applyChanges, in changes.ts, does the same at run time and in types).
import type { SchemaChanges } from './changes.js';

export const v49Changes = {
  books: { defaults: { origin: "''" } },
  book_groups: { drop: ['bookSort'] },
  book_sources: { drop: ['enabledReview', 'coverDecodeJs', 'variableComment', 'ruleReview'] },
  rssSources: {
    drop: ['variableComment', 'coverDecodeJs', 'contentWhitelist', 'contentBlacklist', 'injectJs', 'lastUpdateTime'],
    // Required with no default at 49.
    defaults: { articleStyle: null, enableJs: null, loadWithBaseUrl: null, customOrder: null },
  },
  txtTocRules: { drop: ['example'] },
  readRecord: { drop: ['lastRead'], defaults: { readTime: null } },
  dictRules: 'absent',
  servers: 'absent',
} as const satisfies SchemaChanges;
