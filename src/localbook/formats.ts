// The book formats by file extension. Adding a format is one line in FORMATS.
import type { BookFormat } from './format.js';
import { txtFormat } from './txt/index.js';

export const FORMATS: readonly BookFormat[] = [txtFormat];

/** The lower-case extension of a file name, without the dot ('' when none). */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/** The format that reads this file name, or undefined. */
export function formatFor(fileName: string): BookFormat | undefined {
  const ext = extensionOf(fileName);
  return FORMATS.find((f) => f.extensions.includes(ext));
}

/** Every extension some format reads. */
export const bookExtensions = (): string[] => FORMATS.flatMap((f) => [...f.extensions]);
