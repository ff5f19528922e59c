// A book's name and author from its file name, as the app's LocalBook.analyzeNameAuthor reads
// them (without the user's optional import script): four patterns tried in turn, else the
// whole name cleaned by the app's name and author regexes.
import { translateJavaRegex } from '../text/java-regex.js';

const compile = (p: string): RegExp => {
  const r = translateJavaRegex(p).regex;
  return new RegExp(r.source, r.flags.replace('g', ''));
};
const PATTERNS = ['(.*?)《([^《》]+)》.*?作者：(.*)', '(.*?)《([^《》]+)》(.*)', '(^)(.+) 作者：(.+)$', '(^)(.+) by (.+)$'].map((p) => translateJavaRegex(p));
const NAME_NOISE = compile('\\s+作\\s*者.*|\\s+\\S+\\s+著');
const AUTHOR_NOISE = compile('^\\s*作\\s*者[:：\\s]+|\\s+著');
const global = (r: RegExp): RegExp => new RegExp(r.source, `${r.flags}g`);

/** Kotlin's trim { it <= ' ' }. */
const trimControl = (s: string): string => s.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
export const formatBookName = (s: string): string => trimControl(s.replace(global(NAME_NOISE), ''));
export const formatBookAuthor = (s: string): string => trimControl(s.replace(global(AUTHOR_NOISE), ''));

export function nameAndAuthor(fileName: string): { name: string; author: string } {
  const dot = fileName.lastIndexOf('.');
  const base = dot < 0 ? fileName : fileName.slice(0, dot);
  for (const p of PATTERNS) {
    p.regex.lastIndex = 0;
    const m = p.regex.exec(base);
    if (m) {
      const g = (n: number): string => m[p.groups[n]!] ?? '';
      return { name: g(2), author: formatBookAuthor(g(1) + g(3)) };
    }
  }
  const name = formatBookName(base);
  const author = formatBookAuthor(base.split(name).join(''));
  return { name, author: author.length !== base.length ? author : '' };
}
