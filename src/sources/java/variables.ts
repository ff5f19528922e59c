// Where `java.put/get` and `@put/@get` keep values, in the app's order (AnalyzeRule.put/get):
// the chapter's variables, else the book's (or the search hit's), else the rule data's, else the
// source's (`v_<url>_<key>` in caches). A book's and a chapter's are the JSON map of their
// `variable` column.
import type { RuleVariables } from '../analyze.js';
import type { VariableStore } from '../engine/types.js';
import { jsonMap } from './store-api.js';

/** A `variable` column's JSON map as a store; `json()` gives the column's new text (null when empty). */
export interface VariableMap extends VariableStore {
  json(): string | null;
}

export function variableMap(column: string | null | undefined): VariableMap {
  const map = new Map(Object.entries(jsonMap(column) ?? {}));
  return {
    get: (key) => map.get(key),
    put: (key, value) => void map.set(key, value),
    json: () => (map.size === 0 ? null : JSON.stringify(Object.fromEntries(map))),
  };
}

export interface RuleVariableParts {
  readonly chapter?: VariableStore;
  readonly book?: VariableStore;
  readonly ruleData?: VariableStore;
  /** The source's own (`sourceVariables(source, storage)`). */
  readonly source?: VariableStore;
  /** `get("bookName")` answers the book's name, `get("title")` the chapter's title, when there is one. */
  readonly bookName?: string;
  readonly title?: string;
}

/** The RuleVariables of a RuleContext in the app's order: put on the first there, get the first non-empty. */
export function ruleVariables(parts: RuleVariableParts): RuleVariables {
  const order = [parts.chapter, parts.book, parts.ruleData, parts.source].filter((s): s is VariableStore => s !== undefined);
  return {
    put: (key, value) => order[0]?.put(key, value),
    get: (key) => {
      if (key === 'bookName' && parts.book && parts.bookName !== undefined) return parts.bookName;
      if (key === 'title' && parts.chapter && parts.title !== undefined) return parts.title;
      for (const store of order) {
        const v = store.get(key);
        if (v) return v;
      }
      return undefined;
    },
  };
}
