// The engine suites' Worker (bundled by build.ts, run by test/worker/suites.test.ts through
// wrangler dev): each request runs in the Durable Object its `object` parameter names, on that
// object's SQL storage, the suite files themselves as compiled (dist/test/*.test.js):
//   GET /units?file=F          the file's top-level tests and describes
//   GET /run?file=F&unit=I     runs unit I (a test, or a describe and its tests): each test's outcome by name
//   GET /finish?file=F         the file's after() hooks
// Answers are JSON; an error outside any test is answered 500 with its text.
import type { DurableStorageLike } from '../../../src/engine/drivers/durable-object.js';
import { collect, runUnit, units, type Scope } from './collector.js';
import { loadWasmDriver } from '../../../src/engine/drivers/wasm.js';
import { enterObject, useScratch } from './engine.js';
import { restoreTempDirs } from './fs.js';

export type SuiteLoaders = Readonly<Record<string, () => Promise<unknown>>>;

let loaders: SuiteLoaders = {};

/** Called by the generated entry with a loader per suite file (esbuild keeps each module lazy). */
export function provideSuites(given: SuiteLoaders): void {
  loaders = given;
}

const scopes = new Map<string, Promise<Scope>>();
// One file loads at a time: a module registers into the one scope being collected.
let loading: Promise<unknown> = Promise.resolve();

function load(file: string): Promise<Scope> {
  let scope = scopes.get(file);
  if (!scope) {
    const loader = loaders[file];
    if (!loader) return Promise.reject(new Error(`no suite file ${file} (known: ${Object.keys(loaders).join(', ')})`));
    scope = loading.then(async () => {
      const s = await collect(loader);
      for (const h of s.before) await h();
      return s;
    });
    loading = scope.catch(() => undefined);
    scopes.set(file, scope);
  }
  return scope;
}

function unitOf(scope: Scope, url: URL): NonNullable<Scope['children'][number]> {
  const i = Number(url.searchParams.get('unit'));
  const node = scope.children[i];
  if (!node) throw new Error(`no unit ${i}`);
  return node;
}

interface Ctx {
  readonly storage: DurableStorageLike;
}

export class SuiteObject {
  constructor(private readonly ctx: Ctx) {}

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const file = url.searchParams.get('file') ?? '';
    try {
      useScratch(await loadWasmDriver());
      enterObject(this.ctx.storage);
      restoreTempDirs();
      const scope = await load(file);
      // Loading a file may install the Node engines (src/index.js does): the object's, again.
      enterObject(this.ctx.storage);
      switch (url.pathname) {
        case '/units':
          return Response.json(units(scope));
        case '/run':
          return Response.json(await runUnit(unitOf(scope, url), { before: scope.beforeEach, after: scope.afterEach }));
        case '/finish':
          for (const h of scope.after) await h();
          return Response.json({ finished: file });
        default:
          return Response.json({ error: `no route ${url.pathname}` }, { status: 404 });
      }
    } catch (e) {
      const err = e as Error;
      return Response.json({ error: `${err.name}: ${err.message}\n${err.stack ?? ''}` }, { status: 500 });
    }
  }
}

interface Env {
  readonly SUITES: { idFromName(name: string): unknown; get(id: unknown): { fetch(r: Request): Promise<Response> } };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const object = new URL(request.url).searchParams.get('object') ?? 'default';
    return env.SUITES.get(env.SUITES.idFromName(object)).fetch(request);
  },
};
