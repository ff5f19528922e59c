// A driver whose connections record each call of one method (its SQL): the seam where the
// store meets SQLite, for tests that count prepares or pragmas (test/helpers/engine.ts, and its
// workerd stand-in test/worker/suites/engine.ts).
import type { Connection, Driver } from '../../src/engine/driver.js';

export function recordingOn(method: 'prepare' | 'pragma', base: Driver): { driver: Driver; calls: string[] } {
  const calls: string[] = [];
  const driver: Driver = {
    name: base.name,
    capabilities: base.capabilities,
    files: base.files,
    fileSize: (path) => base.fileSize(path),
    open(path, options) {
      const conn = base.open(path, options) as unknown as Record<string, (sql: string, ...rest: unknown[]) => unknown>;
      const call = conn[method]!.bind(conn);
      conn[method] = (sql: string, ...rest: unknown[]) => (calls.push(sql), call(sql, ...rest));
      return conn as unknown as Connection;
    },
  };
  return { driver, calls };
}
