// Which file of a Legado backup holds which table (reference section 3.1), and the names the
// same files have had elsewhere. Everything that maps files, kinds and tables reads this table.

export interface BackupFile {
  /** The name the app writes (Backup.kt). */
  readonly file: string;
  /** The SQL table it restores into. */
  readonly table: string;
  /** The name of this kind of record on the command line and in reports. */
  readonly kind: string;
  /** Other names of the same file: older backups, the 2.0 backup folder, the app's default data. */
  readonly aliases?: readonly string[];
}

/** In the order the app restores them (Restore.kt). */
export const BACKUP_FILES: readonly BackupFile[] = [
  { file: 'bookshelf.json', table: 'books', kind: 'book' },
  { file: 'bookmark.json', table: 'bookmarks', kind: 'bookmark' },
  { file: 'bookGroup.json', table: 'book_groups', kind: 'bookGroup' },
  { file: 'bookSource.json', table: 'book_sources', kind: 'bookSource', aliases: ['myBookSource.json', 'bookSources.json'] },
  { file: 'rssSources.json', table: 'rssSources', kind: 'rssSource', aliases: ['rssSource.json'] },
  { file: 'rssStar.json', table: 'rssStars', kind: 'rssStar' },
  { file: 'replaceRule.json', table: 'replace_rules', kind: 'replaceRule', aliases: ['myBookReplaceRule.json'] },
  { file: 'searchHistory.json', table: 'search_keywords', kind: 'searchHistory' },
  { file: 'sourceSub.json', table: 'ruleSubs', kind: 'sourceSub' },
  { file: 'txtTocRule.json', table: 'txtTocRules', kind: 'txtTocRule', aliases: ['myTxtChapterRule.json'] },
  { file: 'httpTTS.json', table: 'httpTTS', kind: 'httpTTS' },
  { file: 'dictRule.json', table: 'dictRules', kind: 'dictRule', aliases: ['dictRules.json'] },
  { file: 'keyboardAssists.json', table: 'keyboardAssists', kind: 'keyboardAssist' },
  { file: 'readRecord.json', table: 'readRecord', kind: 'readRecord' },
  { file: 'servers.json', table: 'servers', kind: 'server' },
];

/** Files found in backups and default data that hold no table: what they are instead. */
export const NON_TABLE_FILES: Readonly<Record<string, string>> = {
  'config.xml': 'app preferences (SharedPreferences XML)',
  'readConfig.json': 'reading styles',
  'shareReadConfig.json': 'shared reading style',
  'themeConfig.json': 'themes',
  'coverRule.json': 'cover rule (a cache entry, not a table)',
  'directLinkUploadRule.json': 'direct-link upload rule (file cache)',
  'directLinkUpload.json': 'direct-link upload rules (default data)',
  'myBookShelf.json': 'a 阅读 2.0 bookshelf (not converted)',
  // The LegadoTeam line's backups (schema-history.md): tables the main line does not have, its
  // cookies (a store keeps no cookies from backups) and a settings file.
  'highlight.json': 'LegadoTeam highlights (no such table in the main line)',
  'highlightRule.json': 'LegadoTeam highlight rules (no such table in the main line)',
  'cookies.json': 'LegadoTeam cookies (not restored from backups)',
  'autoTask.json': 'LegadoTeam auto tasks (no such table in the main line)',
  'videoConfig.xml': 'LegadoTeam video settings',
};

/** Record kinds whose rows have no table: the app imports them elsewhere. */
export const NON_TABLE_KINDS: Readonly<Record<string, string>> = {
  theme: 'themes (themeConfig), not a table',
};

const byFileName = new Map<string, BackupFile>();
for (const f of BACKUP_FILES) for (const name of [f.file, ...(f.aliases ?? [])]) byFileName.set(name.toLowerCase(), f);

/** The table file a name stands for (the app's name or an alias, any letter case), if any. */
export function backupFileByName(name: string): BackupFile | undefined {
  return byFileName.get(name.toLowerCase());
}

export function nonTableFile(name: string): string | undefined {
  const hit = Object.keys(NON_TABLE_FILES).find((k) => k.toLowerCase() === name.toLowerCase());
  return hit === undefined ? undefined : NON_TABLE_FILES[hit];
}

/** A kind given by name: the kind, the table, or the backup file name (with or without .json). */
export function backupFileByKind(name: string): BackupFile | undefined {
  const n = name.toLowerCase();
  return BACKUP_FILES.find((f) => f.kind.toLowerCase() === n || f.table.toLowerCase() === n) ?? backupFileByName(n.endsWith('.json') ? n : `${n}.json`);
}

export function backupFileByTable(table: string): BackupFile | undefined {
  return BACKUP_FILES.find((f) => f.table === table);
}

export const KIND_NAMES: readonly string[] = BACKUP_FILES.map((f) => f.kind);
