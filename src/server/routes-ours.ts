// Our endpoints beside the app's, for programs: /api/import (a backup zip or a rule collection,
// imported as the CLI imports them, the report as JSON), /api/export (a backup zip) and
// /api/database (the database file, from the host). Errors are JSON {error, code}.
import type { Context, Hono } from 'hono';
import { importBytesSync } from '../backup/import.js';
import { exportBackupZip } from '../backup/export.js';
import { LegadoStoreError } from '../errors.js';
import type { RouteContext } from './context.js';

const KINDS_OPTIONS = ['kind', 'strict', 'keepName', 'keepGroup', 'keepEnabled', 'onlyNewer'] as const;

function problem(c: Context, status: 400 | 404 | 422 | 500, error: string, code?: string): Response {
  return c.json({ error, ...(code ? { code } : {}) }, status);
}

export function ourRoutes(app: Hono, { store, options }: RouteContext): void {
  app.post('/api/import', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length === 0) return problem(c, 400, 'empty body: send a backup zip or a rule collection (JSON) as the body');
    const q = Object.fromEntries(KINDS_OPTIONS.map((k) => [k, c.req.query(k)]));
    const flag = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : v !== '0' && v !== 'false');
    try {
      // Only the choices given: the import's defaults stand for the others.
      const choices: Record<string, unknown> = {};
      for (const k of KINDS_OPTIONS) if (q[k] !== undefined) choices[k] = k === 'kind' ? q[k] : flag(q[k]);
      const name = c.req.query('name');
      const report = importBytesSync(store, bytes, { ...choices, ...(name ? { name } : {}) });
      return c.json(report);
    } catch (e) {
      if (e instanceof LegadoStoreError) return problem(c, 422, e.message, e.code);
      throw e;
    }
  });

  app.get('/api/export', (c) => {
    const { bytes } = exportBackupZip(store);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="backup.zip"',
    });
  });

  app.get('/api/database', async (c) => {
    if (!options.databaseFile) return problem(c, 404, 'this host does not give the database file');
    return options.databaseFile();
  });
}
