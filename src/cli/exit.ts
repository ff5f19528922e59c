// Exit codes shared by every command.
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Bad arguments that commander itself cannot see (a value out of range, say). */
export class UsageError extends Error {}

export function parseSchemaOption(value: string): 62 | 49 {
  if (value === '62' || value === '49') return Number(value) as 62 | 49;
  throw new UsageError(`--schema must be 62 or 49, not ${JSON.stringify(value)}`);
}
