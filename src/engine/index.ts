// legado-store/driver: what a program needs to bring an engine of its own (docs/engines.md):
// the seam's interfaces, the capabilities a driver declares, and registering it by name.
export type {
  Connection,
  ColumnInfo,
  Driver,
  DriverCapabilities,
  DriverChoice,
  DriverFiles,
  DriverName,
  DriverOpenOptions,
  FileReader,
  PragmaOptions,
  PrivateCopy,
  RunResult,
  Statement,
  TransactionFn,
} from './driver.js';
export { NATIVE_CAPABILITIES, ownReplaceable, REPLACEABLE } from './driver.js';
export { registerDriver, driverNamed } from './registry.js';
