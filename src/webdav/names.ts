// The names the app gives its files in the WebDAV folder (webdav-sync.md): backups and progress
// files. A progress file's name keeps the app's percent-escapes as literal text: the app escapes
// the name, then URL-encodes the whole URL again, so the server stores `a%20b_c.json` as is.

/** The characters the app's normalizeFileName replaces by `_`. */
const FILE_NAME_RESERVED = /[\\/:*?"<>|]/g;

/** The app's replaceReservedChar, in its order (`%` first, so escapes are not escaped again). */
const RESERVED_ESCAPES: readonly (readonly [string, string])[] = [
  ['%', '%25'],
  [' ', '%20'],
  ['"', '%22'],
  ['#', '%23'],
  ['&', '%26'],
  ['(', '%28'],
  [')', '%29'],
  ['+', '%2B'],
  [',', '%2C'],
  ['/', '%2F'],
  [':', '%3A'],
  [';', '%3B'],
  ['<', '%3C'],
  ['=', '%3D'],
  ['>', '%3E'],
  ['?', '%3F'],
  ['@', '%40'],
  ['\\', '%5C'],
  ['|', '%7C'],
];

export function normalizeFileName(name: string): string {
  return name.replace(FILE_NAME_RESERVED, '_');
}

export function replaceReservedChar(text: string): string {
  let out = text;
  for (const [c, replacement] of RESERVED_ESCAPES) out = out.split(c).join(replacement);
  return out;
}

/** `<name>_<author>.json`, as the app names a book's progress file in `bookProgress/`. */
export function progressFileName(name: string, author: string): string {
  return `${replaceReservedChar(normalizeFileName(`${name}_${author}`))}.json`;
}

/** `backup<yyyy-MM-dd>[-<device>].zip` for the given local date, reserved characters replaced by `_`. */
export function backupFileName(date: Date, device?: string): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return normalizeFileName(device ? `backup${day}-${device}.zip` : `backup${day}.zip`);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The app lists restore candidates: names starting with `backup`. */
export function isBackupName(name: string): boolean {
  return name.startsWith('backup');
}

/** The app's AlphanumComparator: digit runs compare as numbers. */
export const alphanumCompare: (a: string, b: string) => number = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' }).compare;
