// The file check the Node-side drivers share: their databases are plain files.
import { statSync } from 'node:fs';

export function nodeFileSize(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.size;
}
