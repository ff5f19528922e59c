// A progress file's content: the app's BookProgress written by its Gson instance (pretty, no HTML
// escaping, a null durChapterTitle left out), and read back as leniently as Gson reads it.
import { gsonPretty } from '../backup/gson.js';

export interface RemoteProgress {
  readonly name: string;
  readonly author: string;
  readonly durChapterIndex: number;
  readonly durChapterPos: number;
  readonly durChapterTime: number;
  readonly durChapterTitle: string | null;
}

/** The file's text, fields in the order of the app's data class. */
export function writeProgressFile(p: RemoteProgress): string {
  const json: Record<string, unknown> = {
    name: p.name,
    author: p.author,
    durChapterIndex: p.durChapterIndex,
    durChapterPos: p.durChapterPos,
    durChapterTime: p.durChapterTime,
  };
  if (p.durChapterTitle !== null) json.durChapterTitle = p.durChapterTitle;
  return gsonPretty(json);
}

/** The progress, or why the text is not a progress file. */
export function readProgressFile(text: string): RemoteProgress | { readonly invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { invalid: `not JSON (${(e as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { invalid: 'not a JSON object' };
  const o = value as Record<string, unknown>;
  if (typeof o.name !== 'string' || typeof o.author !== 'string') return { invalid: 'no name or author' };
  const index = integer(o.durChapterIndex);
  const pos = integer(o.durChapterPos);
  if (index === undefined) return { invalid: 'durChapterIndex is not an integer' };
  if (pos === undefined) return { invalid: 'durChapterPos is not an integer' };
  const title = o.durChapterTitle;
  return {
    name: o.name,
    author: o.author,
    durChapterIndex: index,
    durChapterPos: pos,
    // Gson leaves a missing long at 0.
    durChapterTime: integer(o.durChapterTime) ?? 0,
    durChapterTitle: typeof title === 'string' ? title : null,
  };
}

/** Gson takes numbers and numeric strings for int and long fields. */
function integer(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** The app's rule: further ahead is a higher chapter index, or the same index and a higher position. */
export function isAhead(a: { durChapterIndex: number; durChapterPos: number }, b: { durChapterIndex: number; durChapterPos: number }): boolean {
  return a.durChapterIndex > b.durChapterIndex || (a.durChapterIndex === b.durChapterIndex && a.durChapterPos > b.durChapterPos);
}
