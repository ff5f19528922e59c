// Response builders and HTML pieces the shapes share. No node:* here: the site runs in workerd too.
import type { Book, Chapter, Model } from './model.js';
import { encodeGbk } from './gbk.js';

export interface Ctx {
  readonly model: Model;
  readonly req: Request;
  readonly url: URL;
  /** The site's clock (injectable, for the rate limit). */
  readonly now: () => number;
}

export type Handler = (ctx: Ctx) => Response | undefined | Promise<Response | undefined>;

/** Text made safe for HTML text and attribute values. */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An HTML page. UTF-8 pages say so in the header; GBK pages say it only in `<meta>`, with bytes
 * in GBK and a bare `text/html` header, as old sites do.
 */
export function htmlPage(
  title: string,
  body: string,
  options: { gbk?: boolean; head?: string; status?: number; headers?: Record<string, string> } = {},
): Response {
  const charset = options.gbk ? '<meta http-equiv="Content-Type" content="text/html; charset=gbk" />' : '<meta charset="utf-8">';
  const text = `<!DOCTYPE html>\n<html>\n<head>\n${charset}\n<title>${esc(title)}</title>\n${options.head ?? ''}</head>\n<body>\n${body}\n</body>\n</html>\n`;
  const headers = new Headers(options.headers);
  headers.set('Content-Type', options.gbk ? 'text/html' : 'text/html; charset=utf-8');
  return new Response(options.gbk ? encodeGbk(text) : text, { status: options.status ?? 200, headers });
}

export function json(value: unknown, status = 200, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(value), { status, headers: h });
}

/** A redirect with an absolute `Location` built on the request's own origin. */
export function redirect(ctx: Ctx, path: string, status = 302): Response {
  return new Response(null, { status, headers: { Location: new URL(path, ctx.url).href } });
}

export const notFound = (): Response => htmlPage('404', '<h1>404 Not Found</h1>', { status: 404 });

/** Paragraphs the way text sites write them: `&nbsp;` indents and `<br />` pairs. */
export const brParagraphs = (paras: readonly string[]): string => paras.map((p) => `&nbsp;&nbsp;&nbsp;&nbsp;${esc(p)}<br /><br />`).join('\n');

/** Paragraphs as `<p>` elements. */
export const pParagraphs = (paras: readonly string[]): string => paras.map((p) => `<p>${esc(p)}</p>`).join('\n');

/** The readable chapters (volumes have no page). */
export const readable = (book: Book): Chapter[] => book.chapters.filter((c) => !c.isVolume);

/** A positive integer from a path or query piece, else NaN. */
export const num = (s: string | null | undefined): number => (s && /^\d+$/.test(s) ? Number(s) : Number.NaN);

/** Search pages hold this many books; `page` is 1-based. */
export const PAGE_SIZE = 10;

export function pageOf<T>(list: readonly T[], page: number): T[] {
  const p = Number.isFinite(page) && page > 0 ? page : 1;
  return list.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE);
}
