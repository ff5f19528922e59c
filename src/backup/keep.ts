// What a rule import leaves of the user's own settings on a source they already have, with the
// app's choices (ImportBookSourceViewModel.importSelect and its preselection): the source's
// position (customOrder) is always kept; its name, group and enabled state when asked; and only
// sources newer than the stored one (by lastUpdateTime) are imported unless told otherwise.
// Backups are restores and overwrite, as the app's Restore does.
import type { Column, Table } from '../schema/index.js';
import { defaultValue } from '../table/codec.js';

export interface ImportChoices {
  /** Keep the stored source's name (the app's importKeepName; default false). */
  readonly keepName: boolean;
  /** Keep the stored source's group (importKeepGroup; default false). */
  readonly keepGroup: boolean;
  /** Keep the stored source's enabled state (importKeepEnable; default false). */
  readonly keepEnabled: boolean;
  /**
   * Import a source that is already stored only when its lastUpdateTime is later (default true:
   * the app's import dialog preselects only new and newer sources).
   */
  readonly onlyNewer: boolean;
}

export const DEFAULT_CHOICES: ImportChoices = { keepName: false, keepGroup: false, keepEnabled: false, onlyNewer: true };

interface UserFields {
  readonly name: string;
  readonly group: string;
  readonly enabled: readonly string[];
  readonly order: string;
  readonly updated: string;
}

/** The fields of each source table that the choices speak of. */
const USER_FIELDS: Readonly<Record<string, UserFields>> = {
  book_sources: { name: 'bookSourceName', group: 'bookSourceGroup', enabled: ['enabled', 'enabledExplore'], order: 'customOrder', updated: 'lastUpdateTime' },
  rssSources: { name: 'sourceName', group: 'sourceGroup', enabled: ['enabled'], order: 'customOrder', updated: 'lastUpdateTime' },
};

export const hasUserFields = (table: string): boolean => table in USER_FIELDS;

/**
 * Applies the choices to a record about to replace `stored` (in place, on `row`):
 * 'not newer' when it should not be imported at all.
 */
export function applyUserChoices(table: string, row: Record<string, unknown>, stored: Record<string, unknown>, choices: ImportChoices): 'import' | 'not newer' {
  const f = USER_FIELDS[table];
  if (!f) return 'import';
  if (choices.onlyNewer && !(num(stored[f.updated]) < num(row[f.updated]))) return 'not newer';
  const keep = (field: string) => {
    if (stored[field] === undefined) delete row[field];
    else row[field] = stored[field];
  };
  keep(f.order);
  if (choices.keepName) keep(f.name);
  if (choices.keepGroup) keep(f.group);
  if (choices.keepEnabled) f.enabled.forEach(keep);
  return 'import';
}

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0);

/** True when a record would store what the row already holds (a true duplicate, not a conflict). */
export function sameContent(table: Table, row: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  return table.columns.every((c) => same(c, row[c.field], stored[c.field]));
}

function same(c: Column, given: unknown, stored: unknown): boolean {
  const a = given === undefined || given === null ? defaultValue(c) : given;
  const b = stored === undefined ? null : stored;
  return norm(a) === norm(b);
}

const norm = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
