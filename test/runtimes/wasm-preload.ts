// `node --import` this to run suites on the SQLite WASM driver (memory storage) under Node:
// LEGADO_STORE_DRIVER=wasm then finds it. Used by test/runtimes/run.sh.
import { registerDriver, useNodeDrivers } from '../../src/engine/drivers/index.js';
import { loadWasmDriver } from '../../src/engine/drivers/wasm.js';

useNodeDrivers();
registerDriver(await loadWasmDriver({ storage: 'memory' }));
