// The JavaScript sandbox for book sources' scripts (docs/sandbox.md).
export { QuickJsEngine, type QuickJsEngineOptions, type SandboxMemory } from './engine.js';
export { ScriptFailedError, ScriptMemoryError, ScriptTimeoutError, SourceScriptError, type ScriptPlace } from './errors.js';
export { scriptValueToString } from './text.js';
export { DEFAULT_LIMITS, type HostFunction, type JsBindings, type JsEngine, type JsLimits, type JsRunOptions, type JsSource, type JsValue } from './types.js';
