// `node:test` inside workerd, for the engine suites bundled by build.ts: a suite file registers
// its tests here when it loads; the suites' Worker (worker.ts) lists them and runs one unit (a
// top-level test, or a top-level describe with all of its tests) on request, reporting each
// test by name with its error. Only what the suites use is offered; skip, todo and only are
// refused loudly (a test that cannot pass here is a visible exclusion, never a quiet skip).

type Body = (t: TestContext) => unknown;
type Hook = () => unknown;

interface TestNode {
  readonly kind: 'test';
  readonly name: string;
  readonly fn: Body;
  /** Why the registration itself is refused (skip, todo, only). */
  readonly refused?: string;
}

interface DescribeNode {
  readonly kind: 'describe';
  readonly name: string;
  readonly fn: () => unknown;
  readonly refused?: string;
}

type Node = TestNode | DescribeNode;

/** What a file or a describe body registered. */
export interface Scope {
  readonly children: Node[];
  readonly before: Hook[];
  readonly after: Hook[];
  readonly beforeEach: Hook[];
  readonly afterEach: Hook[];
}

const newScope = (): Scope => ({ children: [], before: [], after: [], beforeEach: [], afterEach: [] });

let scope: Scope | undefined;

function target(what: string): Scope {
  if (!scope) throw new Error(`node:test ${what}() called outside a suite file's loading or a describe body (not supported inside workerd)`);
  return scope;
}

type Options = { skip?: unknown; todo?: unknown; only?: unknown; [k: string]: unknown };

/** test(name?, options?, fn?) as node:test takes it. */
function parse(args: unknown[]): { name: string; options: Options; fn: Body } {
  let name: string | undefined;
  let options: Options = {};
  let fn: Body | undefined;
  for (const a of args) {
    if (typeof a === 'string') name = a;
    else if (typeof a === 'function') fn = a as Body;
    else if (a && typeof a === 'object') options = a as Options;
  }
  return { name: name ?? fn?.name ?? '<anonymous>', options, fn: fn ?? (() => {}) };
}

function refusal(options: Options, how?: string): string | undefined {
  const asked = how ?? (options.skip ? 'skip' : options.todo ? 'todo' : options.only ? 'only' : undefined);
  return asked ? `test ${asked} is refused in the workerd suites: exclude a test in test/worker/suites.test.ts, with its reason` : undefined;
}

function makeTest(how?: string) {
  return (...args: unknown[]): void => {
    const { name, options, fn } = parse(args);
    const refused = refusal(options, how);
    target('test').children.push({ kind: 'test', name, fn, ...(refused ? { refused } : {}) });
  };
}

function makeDescribe(how?: string) {
  return (...args: unknown[]): void => {
    const { name, options, fn } = parse(args);
    const refused = refusal(options, how);
    target('describe').children.push({ kind: 'describe', name, fn: fn as () => unknown, ...(refused ? { refused } : {}) });
  };
}

type Registrar = ((...args: unknown[]) => void) & {
  skip: (...args: unknown[]) => void;
  todo: (...args: unknown[]) => void;
  only: (...args: unknown[]) => void;
};

function registrar(make: (how?: string) => (...args: unknown[]) => void): Registrar {
  return Object.assign(make(), { skip: make('skip'), todo: make('todo'), only: make('only') });
}

export const test = registrar(makeTest);
export const it = test;
export const describe = registrar(makeDescribe);
export const suite = describe;
export const before = (fn: Hook): void => void target('before').before.push(fn);
/** A file's or describe's after hook; called inside a test (tempDir does), that test's own. */
export const after = (fn: Hook): void => void (scope ? scope.after.push(fn) : (running.at(-1)?.push(fn) ?? target('after')));
export const beforeEach = (fn: Hook): void => void target('beforeEach').beforeEach.push(fn);
export const afterEach = (fn: Hook): void => void target('afterEach').afterEach.push(fn);
export default test;

/** The context a test body gets: subtests run inline (their failure fails the test). */
export interface TestContext {
  readonly name: string;
  test(...args: unknown[]): Promise<void>;
  after(fn: Hook): void;
  diagnostic(message: string): void;
  plan(count: number): void;
  skip(message?: string): never;
  todo(message?: string): never;
}

function context(name: string, cleanups: Hook[]): TestContext {
  return {
    name,
    async test(...args: unknown[]) {
      const sub = parse(args);
      const why = refusal(sub.options);
      if (why) throw new Error(`${sub.name}: ${why}`);
      await runBody(sub.name, sub.fn);
    },
    after: (fn) => void cleanups.push(fn),
    diagnostic: () => {},
    plan: () => {},
    skip: () => {
      throw new Error('t.skip() is refused in the workerd suites');
    },
    todo: () => {
      throw new Error('t.todo() is refused in the workerd suites');
    },
  };
}

/** The cleanups of the tests running now, innermost last (subtests nest). */
const running: Hook[][] = [];

async function runBody(name: string, fn: Body): Promise<void> {
  const cleanups: Hook[] = [];
  running.push(cleanups);
  try {
    await fn(context(name, cleanups));
  } finally {
    running.pop();
    for (const c of cleanups.reverse()) await c();
  }
}

/** Loads a suite file (its module's first evaluation registers into a fresh scope). */
export async function collect(load: () => Promise<unknown>): Promise<Scope> {
  const mine = newScope();
  scope = mine;
  try {
    await load();
  } finally {
    scope = undefined;
  }
  return mine;
}

/** A describe's body run into a scope of its own (its tests, hooks and nested describes). */
async function expand(node: DescribeNode): Promise<Scope> {
  const mine = newScope();
  const outer = scope;
  scope = mine;
  try {
    await node.fn();
  } finally {
    scope = outer;
  }
  return mine;
}

/** One test's outcome, by its full name (describe names joined by ' > '). */
export interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

const SEP = ' > ';

function errorText(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return `${e.name}${code ? ` [${String(code)}]` : ''}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 8).join('\n')}`;
  }
  return String(e);
}

/** The top-level units of a file: tests and describes, by name, in order. */
export function units(file: Scope): { kind: 'test' | 'describe'; name: string }[] {
  return file.children.map((n) => ({ kind: n.kind, name: n.name }));
}

/**
 * Runs a unit: a test, or a describe's body and then its tests in order (hooks of each level
 * around them).
 */
export async function runUnit(node: Node, each: { before: Hook[]; after: Hook[] } = { before: [], after: [] }, prefix = ''): Promise<Outcome[]> {
  const full = prefix + node.name;
  if (node.refused) return [{ name: full, ok: false, error: node.refused }];
  if (node.kind === 'test') {
    try {
      for (const h of each.before) await h();
      try {
        await runBody(full, node.fn);
      } finally {
        for (const h of each.after) await h();
      }
      return [{ name: full, ok: true }];
    } catch (e) {
      return [{ name: full, ok: false, error: errorText(e) }];
    }
  }
  let inner: Scope;
  try {
    inner = await expand(node);
  } catch (e) {
    return [{ name: full, ok: false, error: `describe body: ${errorText(e)}` }];
  }
  const out: Outcome[] = [];
  const hooks = { before: [...each.before, ...inner.beforeEach], after: [...inner.afterEach, ...each.after] };
  try {
    for (const h of inner.before) await h();
    for (const c of inner.children) out.push(...(await runUnit(c, hooks, full + SEP)));
  } catch (e) {
    out.push({ name: `${full} (before hook)`, ok: false, error: errorText(e) });
  } finally {
    for (const h of inner.after) await h();
  }
  return out;
}
