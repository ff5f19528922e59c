// Three guarded copies of one plain site: /guard/ wants the cookie its search sets, /rate/ answers
// 429 past a request rate per client, /login/ wants the bearer token its /login/auth hands out.
import { bookById, chapterById, searchBooks, type Book, type Chapter } from './model.js';
import { esc, htmlPage, json, notFound, num, pParagraphs, readable, type Ctx } from './page.js';

export type Guard = 'guard' | 'rate' | 'login';

export const guardedBookPath = (g: Guard, b: Book): string => `/${g}/book/${b.id}`;
export const guardedChapterPath = (g: Guard, b: Book, c: Chapter): string => `/${g}/read/${b.id}/${c.id}`;

export const COOKIE_NAME = 'fx_session';
/** The session cookie's value the site sets and wants. */
export const sessionValue = (seed: number): string => `s${seed}`;
export const LOGIN_USER = { username: 'reader', password: 'secret-pass' };
export const loginToken = (seed: number): string => `fixture-token-${seed}`;
/** The header that names a client for the rate limit (`anon` without it). */
export const CLIENT_HEADER = 'x-fixture-client';

export interface RateLimit {
  /** Requests allowed per client within any `windowMs` (a sliding window). */
  readonly max: number;
  readonly windowMs: number;
}

export const DEFAULT_RATE: RateLimit = { max: 5, windowMs: 1000 };

function pages(g: Guard, ctx: Ctx): Response | undefined {
  const path = ctx.url.pathname;
  if (path === `/${g}/search`) {
    const items = searchBooks(ctx.model, ctx.url.searchParams.get('kw') ?? '').map(
      (b) =>
        `<li class="item"><a class="name" href="${guardedBookPath(g, b)}">${esc(b.name)}</a><span class="author">${esc(b.author)}</span>` +
        `<span class="kind">${esc(b.kind)}</span><span class="latest">${esc(b.latestChapter)}</span></li>`,
    );
    return htmlPage('搜索', `<ul class="items">\n${items.join('\n')}\n</ul>`);
  }
  const m = new RegExp(`^/${g}/(?:book/(\\d+)|read/(\\d+)/(\\d+))$`).exec(path);
  if (!m) return undefined;
  const b = bookById(ctx.model, num(m[1] ?? m[2]));
  if (!b) return notFound();
  if (m[1]) {
    const list = readable(b).map((c) => `<li><a href="${guardedChapterPath(g, b, c)}">${esc(c.title)}</a></li>`);
    const body =
      `<h1>${esc(b.name)}</h1>\n<p class="author">${esc(b.author)}</p>\n<p class="kind">${esc(b.kind)}</p>\n<p class="words">${esc(b.wordCount)}</p>\n` +
      `<div class="intro">${esc(b.intro)}</div>\n<ul class="toc">\n${list.join('\n')}\n</ul>`;
    return htmlPage(b.name, body);
  }
  const c = chapterById(b, num(m[3]));
  return c ? htmlPage(c.title, `<h1>${esc(c.title)}</h1>\n<div class="text">\n${pParagraphs(c.paragraphs)}\n</div>`) : notFound();
}

const cookieOf = (req: Request, name: string): string | undefined =>
  (req.headers.get('cookie') ?? '')
    .split(';')
    .map((p) => p.trim().split('='))
    .find(([k]) => k === name)?.[1];

/** /guard/: the search sets the session cookie; every other page wants it. */
export function cookieShape(ctx: Ctx): Response | undefined {
  const session = sessionValue(ctx.model.seed);
  const has = cookieOf(ctx.req, COOKIE_NAME) === session;
  if (ctx.url.pathname === '/guard/search') {
    const res = pages('guard', ctx)!;
    if (!has) res.headers.append('Set-Cookie', `${COOKIE_NAME}=${session}; Path=/; HttpOnly; Max-Age=86400`);
    return res;
  }
  if (!ctx.url.pathname.startsWith('/guard/')) return undefined;
  if (!has) return htmlPage('错误', '<h1>请先访问首页</h1><p>会话已失效，请开启 Cookie 后重试。</p>', { status: 403 });
  return pages('guard', ctx);
}

/** /rate/: a sliding window per client; past it, 429 and the site's own "too fast" page. */
export function rateShape(limit: RateLimit): (ctx: Ctx) => Response | undefined {
  const seen = new Map<string, number[]>();
  return (ctx) => {
    if (!ctx.url.pathname.startsWith('/rate/')) return undefined;
    const key = ctx.req.headers.get(CLIENT_HEADER) ?? 'anon';
    const now = ctx.now();
    const recent = (seen.get(key) ?? []).filter((t) => now - t < limit.windowMs);
    if (recent.length >= limit.max) {
      seen.set(key, recent);
      return htmlPage('访问过于频繁', '<h1>访问过于频繁，请稍后再试</h1>', { status: 429, headers: { 'Retry-After': '1' } });
    }
    recent.push(now);
    seen.set(key, recent);
    return pages('rate', ctx);
  };
}

/** /login/: POST /login/auth with the user's JSON gives a token; the pages want `Authorization: Bearer <token>`. */
export async function loginShape(ctx: Ctx): Promise<Response | undefined> {
  if (!ctx.url.pathname.startsWith('/login/')) return undefined;
  const token = loginToken(ctx.model.seed);
  if (ctx.url.pathname === '/login/auth') {
    if (ctx.req.method !== 'POST') return json({ code: 405, msg: 'POST only' }, 405);
    let user: unknown;
    try {
      user = JSON.parse(await ctx.req.text());
    } catch {
      user = undefined;
    }
    const u = user as { username?: unknown; password?: unknown } | undefined;
    if (u?.username !== LOGIN_USER.username || u?.password !== LOGIN_USER.password) return json({ code: 401, msg: '用户名或密码错误' }, 401);
    return json({ code: 0, token });
  }
  if (ctx.req.headers.get('authorization') !== `Bearer ${token}`) return json({ code: 401, msg: '请先登录' }, 401, { 'WWW-Authenticate': 'Bearer' });
  return pages('login', ctx);
}
