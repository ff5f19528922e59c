// Values across the sandbox's wall: host values copied into QuickJS handles, script values copied
// out as plain host values. Functions of the host become QuickJS functions that call back.
import type { QuickJSAsyncContext, QuickJSHandle, VmCallResult } from 'quickjs-emscripten-core';
import type { HostFunction } from './types.js';

/** How a host function is called: the sandbox wraps it to keep its time accounting and limits. */
export type HostCaller = (fn: HostFunction, self: unknown, args: unknown[]) => unknown;

const MAX_DEPTH = 64;

/** Copies a host value into the context (types.ts says how). The caller disposes the handle it gets. */
export function toGuest(ctx: QuickJSAsyncContext, value: unknown, call: HostCaller, seen: object[] = []): QuickJSHandle {
  switch (typeof value) {
    case 'undefined':
      return ctx.undefined;
    case 'boolean':
      return value ? ctx.true : ctx.false;
    case 'number':
      return ctx.newNumber(value);
    case 'bigint':
      return ctx.newBigInt(value);
    case 'string':
      return ctx.newString(value);
    case 'function':
      return hostFunction(ctx, value as HostFunction, undefined, call);
    case 'symbol':
      return ctx.undefined;
  }
  if (value === null) return ctx.null;
  const object = value as object;
  // A value met again on the way down (a cycle, a parent link) is left out, as JSON would refuse it.
  if (seen.includes(object) || seen.length >= MAX_DEPTH) return ctx.undefined;
  if (value instanceof Date) return ctx.newNumber(value.getTime());
  seen.push(object);
  try {
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      const items = Array.isArray(value) ? value : Array.from(value as unknown as ArrayLike<number>);
      const array = ctx.newArray();
      items.forEach((item, i) => {
        const handle = toGuest(ctx, item, call, seen);
        ctx.setProp(array, i, handle);
        handle.dispose();
      });
      return array;
    }
    const target = ctx.newObject();
    // A plain object is copied whole; of a class instance (the rule engine's own `java`, a parsed
    // page's node) only its functions come along: its fields are its state, often a whole tree.
    const proto = Object.getPrototypeOf(object);
    const plain = proto === Object.prototype || proto === null;
    for (const [name, item] of Object.entries(object)) {
      if (!plain && typeof item !== 'function') continue;
      const handle = typeof item === 'function' ? hostFunction(ctx, item as HostFunction, object, call, name) : toGuest(ctx, item, call, seen);
      ctx.setProp(target, name, handle);
      handle.dispose();
    }
    // A class instance's methods (a Jsoup-like element, a response) come along, bound to it.
    for (const name of prototypeMethods(object)) {
      if (Object.hasOwn(object, name)) continue;
      const handle = hostFunction(ctx, (object as Record<string, HostFunction>)[name]!, object, call, name);
      ctx.setProp(target, name, handle);
      handle.dispose();
    }
    return target;
  } finally {
    seen.pop();
  }
}

/** The method names on an object's prototypes, short of Object.prototype. */
function prototypeMethods(object: object): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(object); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || names.includes(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value === 'function') names.push(name);
    }
  }
  return names;
}

function hostFunction(ctx: QuickJSAsyncContext, fn: HostFunction, self: unknown, call: HostCaller, name = fn.name): QuickJSHandle {
  // An asyncified function: when the host returns a Promise, the script's stack is unwound and
  // resumed with the value, so `java.ajax(url)` reads as a plain call inside the script.
  return ctx.newAsyncifiedFunction(name || 'host', (...handles) => {
    const args = handles.map((h) => toHost(ctx, h));
    const settle = (result: unknown): VmCallResult<QuickJSHandle> => ({ value: toGuest(ctx, result, call) });
    const fail = (error: unknown): VmCallResult<QuickJSHandle> => ({ error: ctx.newError(error instanceof Error ? error.message : String(error)) });
    let out: unknown;
    try {
      out = call(fn, self, args);
    } catch (error) {
      return fail(error) as never; // a sync result stays sync: no unwinding
    }
    if (out instanceof Promise) return out.then(settle, fail);
    return settle(out) as never;
  });
}

/** Copies a script value out: primitives as they are, arrays and objects through JSON, functions as undefined. */
export function toHost(ctx: QuickJSAsyncContext, handle: QuickJSHandle): unknown {
  switch (ctx.typeof(handle)) {
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'string':
      return ctx.getString(handle);
    case 'number':
      return ctx.getNumber(handle);
    case 'bigint':
      return ctx.getBigInt(handle);
    default:
      // booleans, null, arrays, plain objects (JSON.stringify inside the sandbox, under its limits)
      return ctx.dump(handle);
  }
}
