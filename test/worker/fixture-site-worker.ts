// The fixture site as a Worker, with no nodejs_compat: the same pure function the Node tests
// serve on 127.0.0.1, run by test/worker/fixture-site.test.ts to compare answers byte for byte.
import { fixtureSite } from '../helpers/fixture-site/site.js';

import { SEED } from './fixture-site-seed.js';
const site = fixtureSite(SEED);

export default { fetch: (request: Request): Promise<Response> => site(request) };
