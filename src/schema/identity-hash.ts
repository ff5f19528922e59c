// Room's identity hash (room-conventions.md section 2), computed from the model so that a
// wrong column, default or index shows up as a wrong hash rather than hiding in a constant.
import { md5 as md5Bytes } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Schema, Table, View } from './model.js';

const SEP = '?:?';

// MD5 in plain JavaScript (not node:crypto): the schema model is used in browsers too.
const md5 = (text: string): string => bytesToHex(md5Bytes(utf8ToBytes(text)));

/** Room's key builder: each item followed by `?:?`, then MD5. */
function key(items: readonly string[]): string {
  return md5(items.map((s) => s + SEP).join(''));
}

/** English-lowercase comparison by UTF-16 code units; Array.prototype.sort is stable. */
function sorted(items: readonly string[]): string[] {
  return [...items].sort((a, b) => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function entityKey(t: Table): string {
  const pk = `${t.autoGenerate}-[${t.primaryKey.map((c) => c.name).join(', ')}]`;
  const fields = t.columns.map((c) => `${c.name}-${c.affinity}-${c.notNull}` + (c.default === undefined ? '' : `-defaultValue=${c.default}`));
  const indices = t.indices.map((ix) => `${ix.unique}-${ix.name}-${ix.columns.join(',')}`);
  // Room's export never marks these keys deferred.
  const fks = t.foreignKeys.map((fk) => `${fk.parent}-${fk.parentColumns.join(',')}-${fk.columns.join(',')}-${fk.onDelete}-${fk.onUpdate}-false`);
  return key([t.name, pk, ...sorted(fields), ...sorted(indices), ...sorted(fks)]);
}

/** A view's key is its query alone; the name is not part of it. */
const viewKey = (v: View): string => key([v.query]);

export function identityHash(schema: Schema): string {
  // Entity and view keys are hex digests, so the English-lowercase sort is a plain sort here.
  return key([...sorted(schema.tables.map(entityKey)), ...sorted(schema.views.map(viewKey))]);
}
