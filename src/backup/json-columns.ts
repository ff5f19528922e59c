// TEXT columns that hold a nested object written by the app's Gson converters (reference 1.1):
// in backups and rule files they are JSON objects, in the database pretty-printed JSON text.
// Every other TEXT column is a plain string, even when its content happens to be JSON.

export const JSON_OBJECT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  book_sources: ['ruleExplore', 'ruleSearch', 'ruleBookInfo', 'ruleToc', 'ruleContent', 'ruleReview'],
  books: ['readConfig'],
};

/** What the app's converter writes for a missing object: Gson's toJson(null). */
export const NO_OBJECT_TEXT = 'null';

export function isJsonObjectColumn(table: string, field: string): boolean {
  return JSON_OBJECT_COLUMNS[table]?.includes(field) ?? false;
}
