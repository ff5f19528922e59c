// EPUB books (2 and 3) as the app reads them: chapters from the table of contents, text from
// the XHTML between fragments, title, author, intro and cover from the package document.
// No node:* import: the same code runs in browsers and Workers.
import { InvalidArgumentError } from '../../errors.js';
import type { BookFile, BookFormat, ParsedBook, ParsedChapter } from '../format.js';
import { EpubArchive } from './archive.js';
import { buildChapters, contentsOf, type EpubChapter } from './chapters.js';
import { normalizedText, parseHtml } from './markup.js';
import { readPackage, type EpubPackage, type Resource } from './package.js';
import { chapterText } from './text.js';
import { readToc } from './toc.js';

export { BadEpubError } from './errors.js';
export { EPUB_ZIP_LIMITS } from './archive.js';

interface EpubModel {
  readonly archive: EpubArchive;
  readonly pkg: EpubPackage;
  readonly contents: readonly Resource[];
  readonly chapters: readonly EpubChapter[];
  readonly notes: readonly string[];
}

/** A file read once per BookFile object: reading chapter after chapter does not parse the package again. */
const models = new WeakMap<BookFile, EpubModel>();

function load(file: BookFile): EpubModel {
  const cached = models.get(file);
  if (cached) return cached;
  const archive = new EpubArchive(file);
  const pkg = readPackage(archive);
  const notes = [...pkg.notes];
  const toc = readToc(archive, pkg, notes);
  const model = { archive, pkg, contents: contentsOf(pkg, toc), chapters: buildChapters(archive, pkg, toc), notes };
  models.set(file, model);
  return model;
}

/** epublib's Metadata.getFirstTitle: the first title that is not blank. */
function firstTitle(pkg: EpubPackage): string {
  return pkg.titles.find((t) => t.trim() !== '') ?? '';
}

function parse(file: BookFile): ParsedBook {
  const { archive, pkg, chapters, notes } = load(file);
  const description = pkg.descriptions[0];
  const author = pkg.authors[0];
  const cover = pkg.coverImage && archive.bytes(pkg.coverImage.href);
  return {
    name: firstTitle(pkg) || file.fileName.replaceAll('.epub', ''),
    // Without a creator the app keeps the author it took from the file name (the caller's part).
    author: author === undefined ? '' : author.replace(/^, |, $/g, ''),
    ...(description !== undefined && {
      intro: isXml(description) ? normalizedText(parseHtml(description, { file: file.fileName, entry: `${pkg.path} (dc:description)` })) : description,
    }),
    ...(cover && pkg.coverImage && { cover: { bytes: cover, mediaType: pkg.coverImage.mediaType } }),
    chapters: chapters.map(({ nextUrl: _, ...chapter }) => chapter),
    notes: [
      ...notes,
      ...(author === undefined ? [`${file.fileName}: the package names no creator; the app keeps the author from the file name`] : []),
      ...(pkg.coverImage ? [] : [`${file.fileName}: the package names no cover image`]),
    ],
  };
}

/** The app's String.isXml(): trimmed, it starts with `<` and ends with `>`. */
function isXml(s: string): boolean {
  const t = s.trim();
  return t.startsWith('<') && t.endsWith('>');
}

function text(file: BookFile, book: { readonly charset?: string; readonly name?: string }, chapter: ParsedChapter): string {
  const { archive, contents, chapters } = load(file);
  const known = chapters[chapter.index]?.url === chapter.url ? chapters[chapter.index] : chapters.find((c) => c.url === chapter.url);
  if (!known) {
    throw new InvalidArgumentError(
      'chapter',
      `${file.fileName} has no chapter ${chapter.index} at ${JSON.stringify(chapter.url)} (the file changed? split it again)`,
    );
  }
  return chapterText(archive, contents, known, book.name);
}

export const epubFormat: BookFormat = {
  extensions: ['epub'],
  parse,
  chapterText: text,
};
