// The `java.*` helpers and the bindings book sources' scripts see (docs/sandbox.md, "Helpers").
export { HelperError, HelperUnsupportedError } from './errors.js';
export { javaBindings, type JavaBindings, type JavaBindingsOptions, type RuleExtra } from './session.js';
export { DEFAULT_DEVICE_ID, sourceVariables } from './store-api.js';
