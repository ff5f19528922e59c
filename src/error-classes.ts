// legado-store/errors: every error class, for programs that tell failures apart by class
// (`e instanceof BusyError`) rather than by `e.code`. docs/errors.md lists them with their codes.
export {
  LegadoStoreError,
  ConstraintError,
  UniqueViolationError,
  DuplicateKeyError,
  MissingFieldError,
  ForeignKeyError,
  ConstraintFailedError,
  ValueTypeError,
  UnknownFieldError,
  UnknownTableError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
  NotADatabaseError,
  FileNotFoundError,
  TransactionStateError,
  LimitError,
  MigrationFailedError,
  FileExistsError,
  PortInUseError,
  DriverUnavailableError,
  WriteRefusedError,
  InvalidQueryError,
  SecretRefusedError,
  QueryTimeoutError,
  UnknownGroupError,
  UnknownSourceError,
  FileAccessError,
  StoreClosedError,
  BusyError,
  ReadOnlyError,
  CannotOpenError,
  CannotWriteError,
  DiskFullError,
  IoError,
  CorruptError,
  InvalidArgumentError,
  UnsupportedError,
  type ErrorCode,
  type StructureDifference,
  type Damage,
  type ForeignKeyViolation,
} from './errors.js';
export * from './backup/errors.js';
export * from './webdav/errors.js';
export * from './localbook/errors.js';
export { NetworkPolicyError, FetchFailedError } from './net/errors.js';
export { BadEpubError } from './localbook/epub/errors.js';
export { JavaRegexError } from './text/java-regex.js';
export { RuleError, JsUnavailableError } from './sources/errors.js';
export { SourceFlowError, TocEmptyError, ContentEmptyError, SourceIncompleteError, SourceStepError } from './sources/book/errors.js';
export { UrlRuleError } from './sources/http/errors.js';
export { SourceScriptError, ScriptTimeoutError, ScriptMemoryError, ScriptFailedError } from './sources/js/errors.js';
export { CheckTimeoutError } from './sources/checker/errors.js';
