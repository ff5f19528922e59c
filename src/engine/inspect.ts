// What a file is: its schema version, identity hash, and how its structure compares with that
// version. Read-only; used by openStore before it trusts a file, and by `info`/`verify`.
import type { StructureDifference } from '../errors.js';
import { SUPPORTED_VERSIONS, isSupportedVersion, schemas, type SchemaVersion } from '../schema/index.js';
import { describeSchema, identifyHash, type KnownSchema } from '../schema/lines.js';
import { listTables, type Db } from './connection.js';
import { BOOKKEEPING_TABLES, checkStructure } from './structure.js';

export interface FileReport {
  /** PRAGMA user_version. */
  readonly version: number;
  readonly supported: boolean;
  readonly supportedVersions: readonly SchemaVersion[];
  /** room_master_table row 42, or null when the file has none. */
  readonly identityHash: string | null;
  readonly expectedIdentityHash: string | null;
  /** The line and versions the file's identity hash belongs to, when the store knows it. */
  readonly known: KnownSchema | null;
  /** What the file is, in words: version, line, the app releases that run it. */
  readonly description: string;
  /** Structure and identity-hash differences from the file's version (empty when it matches). */
  readonly differences: readonly StructureDifference[];
  /** Tables beside the schema's own and the bookkeeping ones Android, Room and SQLite add. */
  readonly extraTables: readonly string[];
  readonly ok: boolean;
}

function hasMasterTable(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_master_table'").get() !== undefined;
}

export function readIdentityHash(db: Db): string | null {
  if (!hasMasterTable(db)) return null;
  const v = db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get();
  return typeof v === 'string' ? v : null;
}

export function inspectDatabase(db: Db): FileReport {
  const version = db.pragma('user_version', { simple: true }) as number;
  const identityHash = readIdentityHash(db);
  // Named on first read: naming a hash builds every version's schema (lines.ts), which opening
  // a store of one version never needs. Object.assign below keeps these getters unread.
  let named: KnownSchema | null | undefined;
  let description: string | undefined;
  const base = {
    version,
    supportedVersions: SUPPORTED_VERSIONS,
    identityHash,
    get known(): KnownSchema | null {
      return named === undefined ? (named = identifyHash(identityHash) ?? null) : named;
    },
    get description(): string {
      return (description ??= describeSchema(version, identityHash));
    },
  };
  if (!isSupportedVersion(version)) {
    return Object.assign(base, { supported: false, expectedIdentityHash: null, differences: [], extraTables: [], ok: false });
  }
  const schema = schemas[version];
  const differences = checkStructure(db, schema);
  // Room reads row 42 of room_master_table and refuses any other hash, a missing row (or one
  // under another id) included. A file without the table is validated by structure and
  // accepted (Room's pre-packaged database path).
  if (identityHash === null && hasMasterTable(db)) {
    differences.push({
      table: 'room_master_table',
      kind: 'identity-hash',
      expected: schema.identityHash,
      message: `room_master_table: no identity hash in row 42 (expected ${schema.identityHash} for schema ${version}); the app refuses such a file`,
    });
  } else if (identityHash !== null && identityHash !== schema.identityHash) {
    differences.push({
      table: 'room_master_table',
      kind: 'identity-hash',
      expected: schema.identityHash,
      found: identityHash,
      message: `room_master_table: identity hash ${identityHash} (expected ${schema.identityHash} for schema ${version})`,
    });
  }
  const known = new Set(schema.tables.map((t) => t.name));
  const extraTables = listTables(db).filter((n) => !known.has(n) && !BOOKKEEPING_TABLES.has(n) && !n.startsWith('sqlite_'));
  return Object.assign(base, { supported: true, expectedIdentityHash: schema.identityHash, differences, extraTables, ok: differences.length === 0 });
}
