// node:fs for the suite files inside workerd (build.ts puts it in their place): workerd's own
// in-memory node:fs, except that the folders mkdtempSync made are made again at each request
// (restoreTempDirs): workerd's /tmp lasts one request, and a suite makes its folder when its
// module loads, in the first request, for every test after it, as it does in one Node process.
import * as fs from 'node:fs';

export * from 'node:fs';

const made = new Set<string>();

export function mkdtempSync(prefix: string, options?: fs.EncodingOption): string {
  const dir = fs.mkdtempSync(prefix, options) as string;
  made.add(dir);
  return dir;
}

export function restoreTempDirs(): void {
  for (const dir of made) fs.mkdirSync(dir, { recursive: true });
}
