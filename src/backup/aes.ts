// servers.json in newer backups is AES-encrypted (BackupAES.kt, reference 3.2): AES/ECB with
// PKCS5 padding, Base64 text; the key is the UTF-8 bytes of the first 16 hex digits of
// md5(backup password), and a backup without a password uses the empty one. The noble
// libraries do AES and MD5 in plain JavaScript, synchronously, in Node and in the browser
// (WebCrypto has neither ECB nor MD5, and is asynchronous).
import { ecb } from '@noble/ciphers/aes.js';
import { md5 } from '@noble/hashes/legacy.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function backupKey(password = ''): Uint8Array {
  const hex = Array.from(md5(encoder.encode(password)), (b) => b.toString(16).padStart(2, '0')).join('');
  return encoder.encode(hex.slice(0, 16));
}

export function encryptBackupText(text: string, password?: string): string {
  return toBase64(ecb(backupKey(password)).encrypt(encoder.encode(text)));
}

/** The plain text, or undefined when this key does not open it. */
export function decryptBackupText(base64: string, password?: string): string | undefined {
  try {
    return decoder.decode(ecb(backupKey(password)).decrypt(fromBase64(base64.trim())));
  } catch {
    return undefined;
  }
}

/** True when a file's text is not plain JSON (the app decrypts only what is not a JSON array). */
export function looksEncrypted(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  return t !== '' && !t.startsWith('[') && !t.startsWith('{');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
