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

/**
 * The value with every `null` element taken out of its arrays, at any depth: the current app's
 * Gson rejects an array holding null (what a trailing comma leaves), so export never writes one.
 * Values without such an array are returned as they are.
 */
export function withoutNullElements<T>(value: T): T {
  if (Array.isArray(value)) {
    const kept = value.filter((v) => v !== null).map(withoutNullElements);
    return (kept.length === value.length && kept.every((v, i) => v === value[i]) ? value : kept) as T;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const w = withoutNullElements(v);
      if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = w;
    }
    return (out ?? value) as T;
  }
  return value;
}
