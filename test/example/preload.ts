// `node --import` this to run suites on the docs' example driver: LEGADO_STORE_DRIVER=my-driver
// then finds it (test/example-driver.test.ts).
import { registerDriver, useNodeDrivers } from '../../src/engine/drivers/index.js';
import { myDriver } from './my-driver.js';

useNodeDrivers();
registerDriver(myDriver);
