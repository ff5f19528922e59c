// Which tables a write reaches through foreign-key actions: deleting a book deletes its
// chapters (ON DELETE CASCADE), so a listener of chapters must hear of a typed delete of books.
import type { Table } from '../schema/index.js';
import type { WriteOp } from '../table/write-hooks.js';

interface Cascade {
  readonly child: string;
  /** What a delete / an update of a parent row does to the child rows, when it does anything. */
  readonly onDelete: WriteOp | undefined;
  readonly onUpdate: WriteOp | undefined;
}

export class Cascades {
  private readonly edges = new Map<string, Cascade[]>();

  constructor(tables: readonly Table[]) {
    const effect = (a: string): WriteOp | undefined => (a === 'CASCADE' ? 'delete' : a === 'SET NULL' || a === 'SET DEFAULT' ? 'update' : undefined);
    for (const child of tables) {
      for (const fk of child.foreignKeys) {
        const onDelete = effect(fk.onDelete);
        // ON UPDATE CASCADE rewrites the child's key columns: an update, not a delete.
        const onUpdate = fk.onUpdate === 'CASCADE' ? 'update' : effect(fk.onUpdate);
        if (!onDelete && !onUpdate) continue;
        const list = this.edges.get(fk.parent) ?? [];
        list.push({ child: child.name, onDelete, onUpdate });
        this.edges.set(fk.parent, list);
      }
    }
  }

  /** The other tables a write of this kind to `table` may change, following the actions on (cycles end). */
  reached(table: string, op: WriteOp): Set<string> {
    const out = new Set<string>();
    const seen = new Set<string>([`${op} ${table}`]);
    const todo: [string, WriteOp][] = [[table, op]];
    for (let next = todo.pop(); next; next = todo.pop()) {
      const [t, o] = next;
      for (const edge of this.edges.get(t) ?? []) {
        const then = o === 'delete' ? edge.onDelete : o === 'update' ? edge.onUpdate : undefined;
        if (!then || seen.has(`${then} ${edge.child}`)) continue;
        seen.add(`${then} ${edge.child}`);
        if (edge.child !== table) out.add(edge.child);
        todo.push([edge.child, then]);
      }
    }
    return out;
  }
}
