// The chapter list as the app's EpubFile makes it (getChapterList, parseFirstPage, parseMenu),
// then deduplicated by url and numbered as LocalBook does:
// - with a table of contents: first the XHTML pages that come before the first entry's file in
//   the book's "contents" (cover page, spine, entries' files, guide), titled by the title an
//   entry or guide reference gave the file, else its <title>, else 卷首 marks; then every entry
//   that names a file, depth first: title the label, url the file's path plus `#fragment`,
//   startFragmentId the fragment ('' when none) and the previous chapter's endFragmentId the
//   same; an entry with children marks the chapter last added as a volume;
// - without one: one chapter per spine page, titled by its <title> (封面 for an untitled first).
// Each chapter also gets the url of the one after it (the app's `nextUrl` variable), which
// bounds its text.
import type { ParsedChapter } from '../format.js';
import type { EpubArchive } from './archive.js';
import { BadEpubError } from './errors.js';
import { descendants, normalizedText, parseHtml } from './markup.js';
import type { EpubPackage, Resource } from './package.js';
import type { TocEntry } from './toc.js';

export interface EpubChapter extends ParsedChapter {
  readonly isVolume: boolean;
  /** The url of the chapter after this one in the list before deduplication ('' for the last). */
  readonly nextUrl: string;
}

interface Draft {
  title: string;
  url: string;
  startFragmentId?: string | undefined;
  endFragmentId?: string | undefined;
  isVolume: boolean;
  nextUrl: string;
}

const COVER_TITLE = '封面';
const FRONT_MATTER_TITLE = '--卷首--';

/** epublib's EpubBook.getContents(): cover page, spine, the entries' files, the guide's; each file once. */
export function contentsOf(pkg: EpubPackage, toc: readonly TocEntry[]): Resource[] {
  const seen = new Map<string, Resource>();
  const add = (r: Resource | undefined) => {
    if (r && !seen.has(r.href)) seen.set(r.href, r);
  };
  add(pkg.coverPage);
  pkg.spine.forEach(add);
  walk(toc, (entry) => add(entry.resource));
  pkg.guide.forEach((g) => add(g.resource));
  return [...seen.values()];
}

/** Every entry in document order (a stack of its own: no recursion on the table's depth). */
function walk(entries: readonly TocEntry[], visit: (entry: TocEntry) => void): void {
  const stack = [...entries].reverse();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    visit(entry);
    for (let i = entry.children.length - 1; i >= 0; i--) stack.push(entry.children[i]!);
  }
}

/** The text of a page's first <title> (Jsoup's text()), '' without one. */
export function pageTitle(archive: EpubArchive, resource: Resource): string {
  const bytes = archive.bytes(resource.href);
  if (!bytes) return '';
  const title = descendants(parseHtml(new TextDecoder('utf-8').decode(bytes), { file: archive.file, entry: resource.href }), 'title')[0];
  return title ? normalizedText(title) : '';
}

/**
 * The titles epublib leaves on resources when the contents are listed: each entry that names a
 * file sets it (the last one wins), then each guide reference, then the first top-level entry.
 */
function resourceTitles(pkg: EpubPackage, toc: readonly TocEntry[]): Map<string, string> {
  const titles = new Map<string, string>();
  walk(toc, (entry) => {
    if (entry.resource && entry.title !== null) titles.set(entry.resource.href, entry.title);
  });
  for (const g of pkg.guide) titles.set(g.resource.href, g.title);
  const first = toc.find((entry) => entry.resource);
  if (first?.resource && first.title !== null) titles.set(first.resource.href, first.title);
  return titles;
}

export function buildChapters(archive: EpubArchive, pkg: EpubPackage, toc: readonly TocEntry[]): EpubChapter[] {
  const list: Draft[] = [];
  const add = (chapter: Draft) => {
    const last = list[list.length - 1];
    if (last) {
      last.endFragmentId = chapter.startFragmentId;
      last.nextUrl = chapter.url;
    }
    list.push(chapter);
  };

  if (toc.length === 0) {
    pkg.spine.forEach((resource, i) => {
      const title = pageTitle(archive, resource);
      add({ title: i === 0 && title === '' ? COVER_TITLE : title, url: resource.href, isVolume: false, nextUrl: '' });
    });
  } else {
    const first = toc.find((entry) => entry.resource);
    if (first?.resource) {
      const titles = resourceTitles(pkg, toc);
      for (const content of contentsOf(pkg, toc)) {
        if (!content.mediaType.includes('htm')) continue;
        if (content.href === first.resource.href) break;
        let title = titles.get(content.href) ?? '';
        if (title === '') {
          const own = pageTitle(archive, content);
          title = own.trim() !== '' ? own : FRONT_MATTER_TITLE;
        }
        add({ title, url: content.href, isVolume: false, nextUrl: '' });
      }
    }
    const menu = (entries: readonly TocEntry[]) => {
      for (const entry of entries) {
        if (entry.resource) {
          const fragment = entry.fragmentId;
          add({
            title: entry.title ?? '',
            url: fragment.trim() === '' ? entry.resource.href : `${entry.resource.href}#${fragment}`,
            startFragmentId: fragment,
            isVolume: false,
            nextUrl: '',
          });
        }
        if (entry.children.length > 0) {
          const last = list[list.length - 1];
          if (last) last.isVolume = true;
          menu(entry.children);
        }
      }
    };
    menu(toc);
  }

  if (list.length === 0) {
    throw new BadEpubError(archive.file, pkg.path, 'no chapters: neither the table of contents nor the spine names a page of the book');
  }
  // LocalBook keeps the first chapter of each url (the chapters table's key) and numbers them.
  const seen = new Set<string>();
  const chapters: EpubChapter[] = [];
  for (const draft of list) {
    if (seen.has(draft.url)) continue;
    seen.add(draft.url);
    chapters.push({
      index: chapters.length,
      title: draft.title,
      url: draft.url,
      isVolume: draft.isVolume,
      ...(draft.startFragmentId !== undefined && { startFragmentId: draft.startFragmentId }),
      ...(draft.endFragmentId !== undefined && { endFragmentId: draft.endFragmentId }),
      nextUrl: draft.nextUrl,
    });
  }
  return chapters;
}
