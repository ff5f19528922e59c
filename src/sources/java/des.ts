// DES and DESede (3DES) for `createSymmetricCrypto("DESede/...")` and `tripleDES*`: not built yet.
import { HelperUnsupportedError } from './errors.js';

interface Block {
  readonly size: number;
  encrypt(data: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array): Uint8Array;
}

export function desCipher(triple: boolean, _mode: string, _key: Uint8Array, _iv: Uint8Array | null, helper: string): Block {
  throw new HelperUnsupportedError(helper, `${triple ? 'DESede' : 'DES'} is not supported here (AES is)`);
}
