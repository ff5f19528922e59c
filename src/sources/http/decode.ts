// An answer's bytes as text (OkHttpUtils.text, EncodingDetect.getHtmlEncode): a UTF-8 BOM is
// dropped; the charset is the Content-Type header's, else a `<meta charset>` or `http-equiv`
// Content-Type in the page's <head>, else a guess, else UTF-8. The app guesses with ICU's
// detector; we do not carry one: bytes that are valid UTF-8 are UTF-8, anything else is read as
// GB18030 (a superset of GBK and GB2312, what an undeclared Chinese page almost always is). A
// charset name the platform does not know falls through to the next step.
import { decodeText } from './charset.js';

/** The `charset` parameter of a Content-Type value, or undefined. */
export function contentTypeCharset(contentType: string | null | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return m?.[2];
}

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : undefined;
};

/** The charset a page's <head> declares (`<meta charset>`, or `http-equiv="Content-Type"` with `charset=`), or undefined. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  // The head is read byte for byte: every charset a page may declare keeps ASCII as it is.
  const text = latin1(bytes.subarray(0, 64 * 1024));
  const head = /<head(?:\s[^>]*)?>[\s\S]*?<\/head>/i.exec(text)?.[0];
  if (head === undefined) return undefined;
  for (const m of head.matchAll(/<meta\s[^>]*>/gi)) {
    const tag = m[0];
    const charset = attr(tag, 'charset')?.trim();
    if (charset) return charset;
    if ((attr(tag, 'http-equiv') ?? '').toLowerCase() === 'content-type') {
      const content = attr(tag, 'content') ?? '';
      const at = content.toLowerCase().indexOf('charset=');
      const named = (at >= 0 ? content.slice(at + 8) : content.slice(content.indexOf(';') + 1)).trim();
      if (named) return named;
    }
  }
  return undefined;
}

const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The charset the text is read in, by the order above (without the BOM check). */
export function answerCharset(bytes: Uint8Array, contentType: string | null | undefined): string {
  for (const named of [contentTypeCharset(contentType), metaCharset(bytes)]) {
    if (named !== undefined && decodeText(new Uint8Array(0), named) !== undefined) return named;
  }
  return isUtf8(bytes) ? 'utf-8' : 'gb18030';
}

export function decodeAnswer(bytes: Uint8Array, contentType: string | null | undefined): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return decodeText(body, answerCharset(body, contentType)) ?? new TextDecoder().decode(body);
}

const XML_TYPE = /^(application|text)\/\w*\+?xml/i;

/** An XML answer that lacks its declaration gets one, so the rules read it as XML (AnalyzeUrl.getStrResponseAwait). */
export function withXmlDeclaration(text: string, contentType: string | null | undefined): string {
  return XML_TYPE.test(contentType ?? '') && !/^<\?xml/i.test(text.trim()) ? `<?xml version="1.0"?>${text}` : text;
}

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
