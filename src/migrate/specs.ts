// The app's AutoMigrationSpecs: what its migrations do beyond what Room derives from two
// schemas, kept here as the app's data (legado-data-layer.md 5.1, schema-history.md): the data
// fix of 54->55 and the column 64->65 deletes. Nothing else in the chain is per version.

export interface DataStep {
  /** The app's name for it. */
  readonly name: string;
  /** The schema version whose migration runs it (it runs when an upgrade crosses that version). */
  readonly version: number;
  /** The statements, in the app's order. */
  readonly sql: readonly string[];
}

export const DATA_STEPS: readonly DataStep[] = [
  {
    // DatabaseMigrations.Migration_54_55.onPostMigrate (legado-data-layer.md 5.2): books.type
    // held the source kind (0 text, 1 audio, 2 image, 3 file) and becomes the bitmask of 2.1.
    // The order is safe because every new value is at least 8. LIKE is kept as the app runs it:
    // ASCII case-insensitive, and `_` matches any one character.
    name: 'Migration_54_55',
    version: 55,
    sql: [
      'update books set type = 32 where type = 1',
      'update books set type = 64 where type = 2',
      'update books set type = 128 where type = 3',
      'update books set type = 8 where type = 0',
      "update books set type = type | 256 where origin like 'loc_book%' or origin like 'webDav::%'",
    ],
  },
];

/** A column a version's spec deletes (@DeleteColumn): the table is rebuilt without it. */
export interface DeletedColumn {
  readonly version: number;
  readonly table: string;
  readonly column: string;
}

export const DELETED_COLUMNS: readonly DeletedColumn[] = [
  // AppDatabase.DeleteEnabledReviewColumn, on the AutoMigration 64 -> 65.
  { version: 65, table: 'book_sources', column: 'enabledReview' },
];
