// Which bookUrl a book may be saved with through the web API: a place the books folder holds,
// or a URI that names no file of this machine (http(s) for web books, content:// for a phone's
// local books, which are found in the books folder by file name). A path anywhere else (an
// absolute path outside the folder, `..`, a file: URL, a Windows path) is refused, so no request
// can point a book at a file of the machine. Reading is contained on its own (BookStorage.open).
import type { BookStorage } from './api.js';

const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const WINDOWS_PATH = /^(?:[a-z]:[\\/]|[\\/]{2})/i;

/** Why a bookUrl names a place outside the books folder, or undefined when it does not. */
export function bookUrlOutside(bookUrl: string, storage: BookStorage | undefined): string | undefined {
  if (bookUrl.includes('\0')) return 'a path with a NUL character';
  if (storage?.holds?.(bookUrl)) return undefined;
  if (/^file:/i.test(bookUrl)) return 'a file: URL';
  if (WINDOWS_PATH.test(bookUrl) || bookUrl.includes('\\')) return 'a Windows path';
  if (URI_SCHEME.test(bookUrl)) return undefined;
  let decoded = bookUrl;
  try {
    decoded = decodeURIComponent(bookUrl);
  } catch {
    // Not percent-encoded text: judged as written.
  }
  if ([bookUrl, decoded].some((p) => p.split('/').includes('..'))) return 'a path that climbs out with ..';
  return storage ? 'a path outside the books folder' : 'a file path (this server keeps no local book files)';
}
