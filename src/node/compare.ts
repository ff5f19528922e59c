// `diff` of two paths: opens each side (a store read-only, a backup through the import readers),
// compares the tables both can hold, and closes them. A backup holds only the tables of the
// app's backup files, so the other tables of a store (chapters, caches, cookies, ...) are not
// compared with a backup; they are listed as not compared.
import { BACKUP_FILES } from '../backup/file-map.js';
import { UnknownTableError } from '../errors.js';
import { diffStores, type StoreDiff } from '../inspect/diff.js';
import { openSides, type DiffSide } from './sides.js';

export interface SideInfo {
  readonly path: string;
  readonly kind: DiffSide['kind'];
  readonly version: number;
  readonly skippedRecords: number;
}

export interface PathDiff extends StoreDiff {
  readonly a: SideInfo;
  readonly b: SideInfo;
  /** Tables not compared because a side is a backup, which never holds them. */
  readonly notInBackups: readonly string[];
}

export interface CompareOptions {
  readonly tables?: readonly string[];
  readonly showSecrets?: boolean;
  /** The backup password, for an encrypted servers.json. */
  readonly password?: string;
}

const BACKUP_TABLES = new Set(BACKUP_FILES.map((f) => f.table));

export async function comparePaths(a: string, b: string, options: CompareOptions = {}): Promise<PathDiff> {
  const { a: sa, b: sb, close } = await openSides(a, b, options.password !== undefined ? { password: options.password } : {});
  try {
    for (const t of options.tables ?? []) {
      if (!sa.store.schema.table(t) && !sb.store.schema.table(t))
        throw new UnknownTableError(
          t,
          sa.version,
          sa.store.schema.tables.map((x) => x.name),
        );
    }
    const anyBackup = sa.kind === 'backup' || sb.kind === 'backup';
    const all = new Set([...sa.store.schema.tables, ...sb.store.schema.tables].map((t) => t.name));
    const asked = options.tables ? [...all].filter((t) => options.tables!.includes(t)) : [...all];
    const notInBackups = anyBackup ? asked.filter((t) => !BACKUP_TABLES.has(t)) : [];
    const tables = asked.filter((t) => !notInBackups.includes(t));
    const diff = diffStores(sa.store, sb.store, { tables, showSecrets: options.showSecrets ?? false });
    return { a: info(sa), b: info(sb), ...diff, notInBackups };
  } finally {
    close();
  }
}

const info = (s: DiffSide): SideInfo => ({ path: s.path, kind: s.kind, version: s.version, skippedRecords: s.skippedRecords });
