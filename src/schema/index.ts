// Every schema version the store speaks, built once at load from the declarations: 62 as
// declared (v62.ts), every other version by walking the chain of changes (versions.ts) from it.
import { applyChanges, applyViewChanges, type Applied, type SchemaChanges, type ViewSpec } from './changes.js';
import type { SchemaSpec } from './column.js';
import { identityHash } from './identity-hash.js';
import { buildSchema, type Schema } from './model.js';
import { v62, type V62 } from './v62.js';
import { STEPS, type VersionStep } from './versions.js';

type Steps = typeof STEPS;

/** A schema version of the app's main line the store opens, creates and checks: 49 to 75. */
export type SchemaVersion = 62 | keyof Steps;
/** The spec's version: the declared baseline of the chain (v62.ts), migrate's default target. */
export const CURRENT_VERSION = 62;

type StepTables<S> = S extends { readonly tables: infer T extends SchemaChanges } ? T : Record<never, never>;

/** The declared tables of a version, as a type: 62's declaration with the chain applied. */
export type SpecOf<V extends SchemaVersion> = V extends keyof Steps
  ? Steps[V]['from'] extends infer F extends SchemaVersion
    ? Applied<SpecOf<F>, StepTables<Steps[V]>>
    : never
  : V62;

export const SUPPORTED_VERSIONS: readonly SchemaVersion[] = [62, ...Object.keys(STEPS).map(Number)].sort((a, b) => a - b) as SchemaVersion[];

/**
 * The newest version of the app's main line, the top of the chain (versions.ts): the version
 * of every new store (openStore, init, an import or restore into a missing file, the page).
 */
export const NEWEST_VERSION: SchemaVersion = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]!;

/** The oldest version of the chain: the bottom of SUPPORTED_VERSIONS. */
export const OLDEST_VERSION: SchemaVersion = SUPPORTED_VERSIONS[0]!;

export const isSupportedVersion = (v: number): v is SchemaVersion => v === 62 || Object.hasOwn(STEPS, v);

interface Declared {
  readonly tables: SchemaSpec;
  readonly views: ViewSpec;
}

const declared = new Map<number, Declared>([[62, { tables: v62, views: {} }]]);

/** The tables and views of a version: its neighbour's with its step applied. */
function declaredAt(version: SchemaVersion): Declared {
  let d = declared.get(version);
  if (!d) {
    const step: VersionStep = STEPS[version as keyof Steps];
    const base = declaredAt(step.from as SchemaVersion);
    d = { tables: applyChanges(base.tables, step.tables ?? {}), views: applyViewChanges(base.views, step.views) };
    declared.set(version, d);
  }
  return d;
}

/** The declared tables of one version (the value behind `SpecOf<V>`). */
export function specOf<V extends SchemaVersion>(version: V): SpecOf<V> {
  return declaredAt(version).tables as SpecOf<V>;
}

export interface VersionedSchema extends Schema {
  readonly version: SchemaVersion;
  readonly identityHash: string;
}

function versioned(version: SchemaVersion): VersionedSchema {
  const d = declaredAt(version);
  const schema = buildSchema(version, d.tables, d.views);
  return { ...schema, version, identityHash: identityHash(schema) };
}

/**
 * Every version's schema, each built on first use: building all 27 with their identity hashes
 * took about 40 ms of every process's start, where most use one or two. Each key is an
 * enumerable getter that leaves the built schema in its place.
 */
export const schemas: Readonly<Record<SchemaVersion, VersionedSchema>> = {} as Record<SchemaVersion, VersionedSchema>;
for (const v of SUPPORTED_VERSIONS) {
  Object.defineProperty(schemas, v, {
    enumerable: true,
    configurable: true,
    get: () => {
      const built = versioned(v);
      Object.defineProperty(schemas, v, { value: built, enumerable: true, writable: false, configurable: false });
      return built;
    },
  });
}

let columnsOfAnyVersion: Map<string, Set<string>> | undefined;

/**
 * Whether `name` (a field or its SQL column) is a column of `table` at some version 49 to 75:
 * a field of the app that a store of another version lacks (reported as dropped), rather than
 * one no version has (reported as unknown).
 */
export function isColumnAtAnyVersion(table: string, name: string): boolean {
  if (!columnsOfAnyVersion) {
    columnsOfAnyVersion = new Map();
    for (const v of SUPPORTED_VERSIONS) {
      for (const t of schemas[v].tables) {
        const set = columnsOfAnyVersion.get(t.name) ?? new Set();
        for (const c of t.columns) set.add(c.field).add(c.name);
        columnsOfAnyVersion.set(t.name, set);
      }
    }
  }
  return columnsOfAnyVersion.get(table)?.has(name) ?? false;
}

export type { Column, ForeignKey, Index, Schema, Table, View } from './model.js';
