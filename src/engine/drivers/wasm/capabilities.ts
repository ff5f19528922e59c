// What SQLite WASM allows, as the seam asks it (engine/driver.ts).
import type { DriverCapabilities } from '../../driver.js';

/** SQLite's own limits; no file system beside it (OPFS pool or memory), so no WAL and no memory map. */
export const WASM_CAPABILITIES: DriverCapabilities = Object.freeze({
  files: false,
  wal: false,
  mmap: false,
  transactions: 'statements',
  maxParameters: 32766,
  userVersion: true,
  maxLikePatternBytes: 50000,
});
