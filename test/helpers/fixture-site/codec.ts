// The tokens the JS shape checks, computed the way its sources' scripts compute them.
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const md5Hex = (text: string): string => bytesToHex(md5(new TextEncoder().encode(text)));

export function base64Utf8(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** UTF-8 text from base64, or undefined when it is not base64. */
export function fromBase64Utf8(b64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The salt the T2 source adds before hashing the keyword. */
export const SIGN_SALT = 'fixture';
export const searchSign = (keyword: string): string => md5Hex(keyword + SIGN_SALT);

/** The T1 token: the sum of the keyword's UTF-16 code units modulo 9973 (plain JS can compute it). */
export function plainToken(keyword: string): number {
  let s = 0;
  for (let i = 0; i < keyword.length; i++) s += keyword.charCodeAt(i);
  return s % 9973;
}
