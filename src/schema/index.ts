// The two schema versions the store speaks, built once from the declarations.
import { applyChanges } from './changes.js';
import { identityHash } from './identity-hash.js';
import { buildSchema, type Schema } from './model.js';
import { v49Changes } from './v49.js';
import { v62 } from './v62.js';

export const spec62 = v62;
export const spec49 = applyChanges(v62, v49Changes);
export type Spec62 = typeof spec62;
export type Spec49 = typeof spec49;

export type SchemaVersion = 62 | 49;
export const SUPPORTED_VERSIONS: readonly SchemaVersion[] = [62, 49];
export const CURRENT_VERSION = 62;

export interface VersionedSchema extends Schema {
  readonly version: SchemaVersion;
  readonly identityHash: string;
}

function versioned(version: SchemaVersion, schema: Schema): VersionedSchema {
  return { ...schema, version, identityHash: identityHash(schema) };
}

export const schemas: Readonly<Record<SchemaVersion, VersionedSchema>> = {
  62: versioned(62, buildSchema(62, spec62)),
  49: versioned(49, buildSchema(49, spec49)),
};

export const isSupportedVersion = (v: number): v is SchemaVersion => v === 62 || v === 49;

export type { Column, ForeignKey, Index, Schema, Table } from './model.js';
