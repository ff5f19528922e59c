// Row types are derived from the schema model. These checks run when tsc builds the tests:
// a wrong derivation fails the build (and so `npm test`); the runtime part keeps them honest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Key, type NewRow, type Row } from 'legado-store';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T => true as T;

// Required, nullable and defaulted fields, booleans and bigints, the renamed field.
check<Equal<Row<'books'>['group'], bigint>>();
check<Equal<Row<'books'>['canUpdate'], boolean>>();
check<Equal<Row<'books'>['kind'], string | null>>();
check<Equal<Row<'book_sources'>['enabledReview'], boolean | null>>();
check<Equal<Row<'replace_rules'>['order'], number>>();
check<Equal<NewRow<'books'>['group'], bigint | number | undefined>>();
check<Equal<Key<'chapters'>, { url: string; bookUrl: string }>>();
check<Equal<Key<'book_groups'>, bigint | number>>();
check<Equal<Key<'books'>, string>>();
// At 49 the dropped fields are gone and the defaults that 49 lacks make fields required.
check<Equal<'bookSort' extends keyof Row<'book_groups', 49> ? true : false, false>>();
check<Equal<'lastRead' extends keyof Row<'readRecord', 49> ? true : false, false>>();
check<Equal<'dictRules' extends keyof import('legado-store').Tables<49> ? true : false, false>>();
// Every version has its own rows, from the chain of changes: 63 adds enableRefresh, 65 drops
// enabledReview and adds jsLib, 72 adds the RSS groups, 75 is the newest.
check<Equal<Row<'book_groups', 63>['enableRefresh'], boolean>>();
check<Equal<'enableRefresh' extends keyof Row<'book_groups', 62> ? true : false, false>>();
check<Equal<'enabledReview' extends keyof Row<'book_sources', 65> ? true : false, false>>();
check<Equal<Row<'book_sources', 64>['exploreScreen'], string | null>>();
check<Equal<Row<'rssArticles', 72>['group'], string>>();
check<Equal<Row<'chapters', 73>['wordCount'], string | null>>();
check<Equal<Row<'rssReadRecords', 74>['readTime'], number | null>>();
check<Equal<'servers' extends keyof import('legado-store').Tables<61> ? true : false, false>>();
check<Equal<NewRow<'searchBooks', 67>['respondTime'], number | undefined>>();

test('typed tables accept what the types allow and reject the rest at compile time', () => {
  const s = openStore(':memory:');
  const key = s.tables.books.insert({ bookUrl: 'b', name: 'n' }); // everything else has a default
  assert.equal(key, 'b');
  // biome-ignore format: the @ts-expect-error must stay on the line before the call
  // @ts-expect-error bookSourceName is required and has no default
  assert.throws(() => s.tables.book_sources.insert({ bookSourceUrl: 'x', bookSourceType: 0, customOrder: 0, enabled: true, enabledExplore: true, lastUpdateTime: 0, respondTime: 0, weight: 0 }));
  // @ts-expect-error canUpdate is a boolean, not 0/1
  assert.throws(() => s.tables.books.insert({ bookUrl: 'c', canUpdate: 1 }));
  // @ts-expect-error composite keys are objects
  assert.throws(() => s.tables.chapters.get('u'));
  const s49 = openStore(':memory:', { schema: 49 });
  // @ts-expect-error readRecord.readTime has no default at 49
  assert.throws(() => s49.tables.readRecord.insert({ deviceId: '', bookName: 'b' }), /readTime: required field is missing/);
  s49.close();
  s.close();
});

test('a bare open is typed as any version and narrows on store.version', () => {
  const s = openStore(':memory:');
  // @ts-expect-error syncTime is not a column at every version
  assert.equal(s.tables.books.get('x')?.syncTime, undefined);
  const s75 = openStore(':memory:', { schema: 75 });
  s75.tables.books.insert({ bookUrl: 'b', syncTime: 5 });
  s75.close();
  if (s.version === 75) {
    check<Equal<typeof s, import('legado-store').Store<75>>>();
    assert.equal(s.tables.dictRules.count(), 0);
  } else assert.fail('a new file is created at 75');
  s.close();
});
