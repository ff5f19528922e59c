// EPUB files for tests, zipped with fflate as a publisher's tool does: `mimetype` first and
// stored, then META-INF/container.xml, the package document, its table of contents and pages.
import { zipSync, type Zippable } from 'fflate';
import type { BookFile } from '../../src/localbook/format.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** Entries in order; `mimetype` and (unless `container` is null) container.xml are put first. */
export function epubBytes(files: Record<string, string | Uint8Array>, opfPath = 'OEBPS/content.opf', container?: string | null): Uint8Array {
  const zippable: Zippable = { mimetype: [enc('application/epub+zip'), { level: 0 }] };
  if (container !== null) {
    zippable['META-INF/container.xml'] = enc(
      container ??
        `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="${opfPath}" media-type="application/oebps-package+xml"/></rootfiles>
</container>`,
    );
  }
  for (const [name, data] of Object.entries(files)) zippable[name] = typeof data === 'string' ? enc(data) : data;
  return zipSync(zippable, { level: 6 });
}

export function bookFile(fileName: string, bytes: Uint8Array): BookFile {
  return { fileName, size: bytes.length, read: (start, end) => bytes.subarray(start, Math.min(end, bytes.length)) };
}

export function xhtml(title: string | null, body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xmlns:xlink="http://www.w3.org/1999/xlink">
<head>${title === null ? '' : `<title>${title}</title>`}<link rel="stylesheet" href="../Styles/s.css"/></head>
<body>
${body}
</body>
</html>`;
}
