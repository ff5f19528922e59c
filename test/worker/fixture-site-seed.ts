/** The seed of the fixture site both the Worker and the Node side of the comparison build. */
export const SEED = 20261207;
/** The origin the engine's Worker (sources-worker.ts) gives its sources: public-looking, so the default policy applies; the site is the fetch, nothing is resolved. */
export const ENGINE_BASE = 'https://books.example';
