// Extracts the facts the oracle tests need from the app's exported Room schemas
// (../shared/reference/room-schemas/<line>/<N>.json) into test/fixtures/room-facts/<line>.json:
// per version its identity hash, the entities (tables) it has, its views and setup queries; each
// distinct entity once (tableName, createSql, the fields' column, affinity, NOT NULL and default,
// primary key, indices, foreign keys). Dropped: formatVersion, fieldPath, index orders (unused).
// Run: npm run room-facts (writes the fixtures); test/corpus/room-facts.test.ts checks that the
// committed fixtures still equal what this extracts when ../shared is there.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LINES = ['legado', 'LegadoTeam-fork'] as const;
export type RoomLine = (typeof LINES)[number];

/** <repo>/../shared/reference/room-schemas (this file runs from <repo>/dist/scripts). */
export const ROOM_SCHEMAS_DIR = fileURLToPath(new URL('../../../shared/reference/room-schemas/', import.meta.url));
/** <repo>/test/fixtures/room-facts. */
export const ROOM_FACTS_DIR = fileURLToPath(new URL('../../test/fixtures/room-facts/', import.meta.url));

type Json = Record<string, unknown>;

/** One line's facts: entities by `<tableName>@<first version it appears in>`, versions by number. */
export interface RoomFactsFile {
  readonly about: string;
  readonly line: RoomLine;
  readonly versions: Record<string, { identityHash: string; entities: string[]; views: Json[]; setupQueries: string[] }>;
  readonly entities: Record<string, Json>;
}

/** The listed keys of `o`, in that order, those present only. */
const pick = (o: Json, keys: readonly string[]): Json => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

function entityFacts(e: Json): Json {
  return {
    ...pick(e, ['tableName', 'createSql']),
    fields: (e['fields'] as Json[]).map((f) => pick(f, ['columnName', 'affinity', 'notNull', 'defaultValue'])),
    primaryKey: pick(e['primaryKey'] as Json, ['autoGenerate', 'columnNames']),
    indices: ((e['indices'] ?? []) as Json[]).map((i) => pick(i, ['name', 'unique', 'columnNames', 'createSql'])),
    foreignKeys: ((e['foreignKeys'] ?? []) as Json[]).map((k) => pick(k, ['table', 'onDelete', 'onUpdate', 'columns', 'referencedColumns'])),
  };
}

/** The facts of one line, read from `<dir>/<line>/<N>.json`, versions in ascending order. */
export function extractRoomFacts(line: RoomLine, dir = ROOM_SCHEMAS_DIR): RoomFactsFile {
  const numbers = readdirSync(join(dir, line))
    .map((f) => /^(\d+)\.json$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const entities: Record<string, Json> = {};
  const seen = new Map<string, string>();
  const versions: RoomFactsFile['versions'] = {};
  for (const v of numbers) {
    const db = (JSON.parse(readFileSync(join(dir, line, `${v}.json`), 'utf8')) as { database: Json }).database;
    if (db['version'] !== v) throw new Error(`${line}/${v}.json says version ${String(db['version'])}`);
    const names: string[] = [];
    for (const e of db['entities'] as Json[]) {
      const facts = entityFacts(e);
      const text = JSON.stringify(facts);
      let key = seen.get(text);
      if (key === undefined) {
        key = `${String(e['tableName'])}@${v}`;
        seen.set(text, key);
        entities[key] = facts;
      }
      names.push(key);
    }
    versions[v] = {
      identityHash: db['identityHash'] as string,
      entities: names,
      views: ((db['views'] ?? []) as Json[]).map((w) => pick(w, ['viewName', 'createSql'])),
      setupQueries: db['setupQueries'] as string[],
    };
  }
  const about = `Facts from the app's exported Room schemas (room-schemas/${line}/<N>.json), written by scripts/extract-room-facts.ts (npm run room-facts); do not edit by hand.`;
  return { about, line, versions, entities };
}

/** The file's text, stable for diffs: a line per version, entity key, field, index, key, view. */
export function roomFactsText(facts: RoomFactsFile): string {
  const flat = (v: unknown): string => JSON.stringify(v);
  const list = (items: readonly unknown[], indent: string): string =>
    items.length === 0 ? '[]' : `[\n${items.map((i) => `${indent} ${flat(i)}`).join(',\n')}\n${indent}]`;
  const entity = (e: Json): string =>
    `{\n${Object.entries(e)
      .map(([k, v]) => `   ${flat(k)}: ${Array.isArray(v) ? list(v, '   ') : flat(v)}`)
      .join(',\n')}\n  }`;
  const version = (v: RoomFactsFile['versions'][string]): string =>
    `{\n   "identityHash": ${flat(v.identityHash)},\n   "entities": ${flat(v.entities)},\n   "views": ${list(v.views, '   ')},\n   "setupQueries": ${list(v.setupQueries, '   ')}\n  }`;
  const body = [
    ` "about": ${flat(facts.about)}`,
    ` "line": ${flat(facts.line)}`,
    ` "versions": {\n${Object.entries(facts.versions)
      .map(([k, v]) => `  ${flat(k)}: ${version(v)}`)
      .join(',\n')}\n }`,
    ` "entities": {\n${Object.entries(facts.entities)
      .map(([k, e]) => `  ${flat(k)}: ${entity(e)}`)
      .join(',\n')}\n }`,
  ];
  return `{\n${body.join(',\n')}\n}\n`;
}

function main(): void {
  mkdirSync(ROOM_FACTS_DIR, { recursive: true });
  for (const line of LINES) {
    const text = roomFactsText(extractRoomFacts(line));
    const file = join(ROOM_FACTS_DIR, `${line}.json`);
    writeFileSync(file, text);
    console.log(`${file}: ${text.length} characters`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
