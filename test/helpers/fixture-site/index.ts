// The fixture site's platform-free parts (no node:*; node.ts adds the 127.0.0.1 server).
export {
  model,
  searchBooks,
  bookById,
  chapterById,
  chapterText,
  nextReadable,
  pagesOf,
  type Book,
  type Chapter,
  type Model,
  type ModelOptions,
} from './model.js';
export { fixtureSite, type Site, type SiteOptions } from './site.js';
export { fixtureSources, sources, manySources, safetySources } from './sources.js';
export { expectedSearch, expectedExplore, expectedInfo, expectedToc, expectedText, type BookFields, type ExpectedChapter } from './expected.js';
export { encodeGbk, decodeGbk, gbkPercentEncode, gbkPercentDecode } from './gbk.js';
export type { BookSourceJson, BookField, Expect, FixtureSource, Tier } from './source-shape.js';
export { COOKIE_NAME, CLIENT_HEADER, LOGIN_USER, loginToken, DEFAULT_RATE, type RateLimit } from './shape-guarded.js';
export { PRIVATE_TARGETS } from './shape-safety.js';
export { checkPlan, type PlannedRequest } from './plan.js';
