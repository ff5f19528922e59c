// GET /cover?path=: a book's cover (BookController.getCover). The app answers the picture scaled
// to 84x112 as PNG, or its default cover when loading fails. Here: a cover the books folder
// kept (an EPUB's) or a plain http(s) URL fetched under the network policy (src/net: public
// addresses only, every redirect checked, a time and size bound), answered as the picture's own
// bytes and type (no scaling: no image library in the core; a browser scales it), and the
// default cover otherwise. Never an error, never a hang.
import { fetchWithPolicy } from '../net/fetch.js';
import type { RouteContext } from './context.js';

/** Longest wait for a cover URL, in ms. */
export const COVER_TIMEOUT_MS = 5_000;
/** Largest cover read from a URL, in bytes. */
export const COVER_MAX_BYTES = 2 << 20;

/** The default cover: 84x112, the app's size, as SVG (no image encoder needed). */
export const DEFAULT_COVER =
  '<svg xmlns="http://www.w3.org/2000/svg" width="84" height="112" viewBox="0 0 84 112">' +
  '<rect width="84" height="112" fill="#c9b99a"/><rect x="6" y="6" width="72" height="100" fill="none" stroke="#8b7355" stroke-width="2"/>' +
  '<text x="42" y="62" font-size="18" text-anchor="middle" fill="#5c4a32">阅读</text></svg>';

const image = (bytes: Uint8Array | string, type: string): Response =>
  new Response(bytes, { status: 200, headers: { 'Content-Type': type, 'Cache-Control': 'max-age=3600' } });

export const defaultCover = (): Response => image(DEFAULT_COVER, 'image/svg+xml');

export async function coverAnswer(path: string | undefined, { options }: RouteContext): Promise<Response> {
  if (!path) return defaultCover();
  const kept = options.bookStorage?.readCover?.(path);
  if (kept) return image(kept.bytes, kept.mediaType);
  if (!/^https?:\/\//i.test(path)) return defaultCover();
  try {
    const res = await fetchWithPolicy(
      path,
      {},
      {
        fetch: options.hostFetch,
        allowPrivateHosts: options.allowPrivateHosts,
        reachableHosts: options.reachableHosts,
        maxBytes: COVER_MAX_BYTES,
        timeoutMs: COVER_TIMEOUT_MS,
      },
    );
    const type = res.headers.get('content-type') ?? '';
    return res.status >= 200 && res.status < 300 && /^image\//i.test(type) ? image(res.bytes, type) : defaultCover();
  } catch {
    // Refused by the policy, unreachable, too large or too slow: the app's default cover.
    return defaultCover();
  }
}
