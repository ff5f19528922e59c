// The suite's engine with a short LIKE pattern limit, as a Durable Object has (50 bytes): the
// driver says so in its capabilities, and its statements refuse a longer pattern bound to a
// `LIKE ?` as the engine would ("LIKE or GLOB pattern too complex"), so a test sees both that
// the store stays within the limit and what it returns.
import type { Driver, DriverCapabilities, Statement } from '../../src/engine/driver.js';
import { checkedStatement, wrappedConnection } from './checked-connection.js';
import { testDriver } from './engine.js';

const utf8 = new TextEncoder();

/** Which positional `?` of the SQL are LIKE patterns (the text before them ends in LIKE). */
function likeSlots(sql: string): number[] {
  const parts = sql.split('?');
  const slots: number[] = [];
  for (let i = 0; i < parts.length - 1; i++) if (/\bLIKE\s*$/i.test(parts[i]!)) slots.push(i);
  return slots;
}

function limitedStatement(inner: Statement, slots: number[], maxBytes: number, sql: string): Statement {
  const check = (params: unknown[]): void => {
    const flat = params.flat();
    for (const i of slots) {
      const p = flat[i];
      if (typeof p === 'string' && utf8.encode(p).length > maxBytes) {
        throw Object.assign(new Error(`LIKE or GLOB pattern too complex (${utf8.encode(p).length} bytes > ${maxBytes}) in: ${sql}`), { code: 'SQLITE_ERROR' });
      }
    }
  };
  return checkedStatement(inner, check);
}

/** `base` (the suite's engine) taking LIKE patterns of at most `maxBytes` bytes. */
export function likeLimited(maxBytes: number, base: Driver = testDriver): Driver {
  const capabilities: DriverCapabilities = { ...base.capabilities, maxLikePatternBytes: maxBytes };
  return {
    name: base.name,
    capabilities,
    files: base.files,
    fileSize: (p) => base.fileSize(p),
    open(p, o) {
      const inner = base.open(p, o);
      return wrappedConnection(inner, { capabilities, prepare: (sql) => limitedStatement(inner.prepare(sql), likeSlots(sql), maxBytes, sql) });
    },
  };
}
