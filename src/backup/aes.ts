// servers.json in newer backups is AES-encrypted (BackupAES.kt, reference 3.2): AES/ECB with
// PKCS5 padding, Base64 text; the key is the UTF-8 bytes of the first 16 hex digits of
// md5(backup password), and a backup without a password uses the empty one.
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

export function backupKey(password = ''): Buffer {
  return Buffer.from(createHash('md5').update(password, 'utf8').digest('hex').slice(0, 16), 'utf8');
}

export function encryptBackupText(text: string, password?: string): string {
  const cipher = createCipheriv('aes-128-ecb', backupKey(password), null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/** The plain text, or undefined when this key does not open it. */
export function decryptBackupText(base64: string, password?: string): string | undefined {
  try {
    const decipher = createDecipheriv('aes-128-ecb', backupKey(password), null);
    const plain = Buffer.concat([decipher.update(Buffer.from(base64.trim(), 'base64')), decipher.final()]);
    return plain.toString('utf8');
  } catch {
    return undefined;
  }
}

/** True when a file's text is not plain JSON (the app decrypts only what is not a JSON array). */
export function looksEncrypted(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  return t !== '' && !t.startsWith('[') && !t.startsWith('{');
}
