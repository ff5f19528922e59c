// Every public method of a store, its tables and its domain areas reports failures as typed
// errors naming the file. Rather than a try/catch in each of some 200 methods, each class's
// methods are wrapped once, at load time; the wrapper costs one extra call, and the catch runs
// only on failure. The store a method's object belongs to is recorded when the store makes it.
import { CorruptError } from '../errors.js';
import { engineError } from '../engine/errors.js';
import { generated } from '../table/compiled.js';

/** The store behind guarded objects: its file, and whether SQLite has reported it damaged. */
export interface Owner {
  readonly path: string;
  damaged: boolean;
}

const owners = new WeakMap<object, Owner>();

export function ownedBy<T extends object>(o: T, owner: Owner): T {
  owners.set(o, owner);
  return o;
}

/** Records that SQLite found the file of `o`'s store damaged (a check outside the guarded methods). */
export function markDamaged(o: object): void {
  const owner = owners.get(o);
  if (owner) owner.damaged = true;
}

function translate(self: unknown, e: unknown): unknown {
  const owner = typeof self === 'object' && self !== null ? owners.get(self) : undefined;
  const typed = engineError(owner?.path ?? '(store)', e);
  if (owner && typed instanceof CorruptError) owner.damaged = true;
  return typed;
}

/**
 * Wraps each method on the prototype of each class (inherited ones included, up to Object):
 * errors thrown while it runs, or while an iterator it returns is read, come out typed.
 */
export function guardMethods(...classes: (abstract new (...args: never[]) => object)[]): void {
  for (const Kind of classes) {
    for (let proto = Kind.prototype as object; proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === 'constructor') continue;
        const d = Object.getOwnPropertyDescriptor(proto, name)!;
        if (typeof d.value !== 'function' || (d.value as { guarded?: true }).guarded) continue;
        Object.defineProperty(proto, name, { ...d, value: guard(d.value as (...args: unknown[]) => unknown) });
      }
    }
  }
}

function guard(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const generator = fn.constructor.name === 'GeneratorFunction';
  // Where code can be generated, each method's wrapper is code of its own: one function shared by
  // every method (some 200) meets them all at its call of fn, which the engine then cannot inline
  // (JavaScriptCore: a chapter read by index 1.2% slower, bench/README.md). `arguments` passed on
  // as they came: V8 forwards them without the array a rest parameter makes.
  const guarded = generated(
    () =>
      new Function(
        'fn',
        'translate',
        'guardIterator',
        `"use strict"; return function () { try { return ${generator ? 'guardIterator(fn.apply(this, arguments), this)' : 'fn.apply(this, arguments)'}; } catch (e) { throw translate(this, e); } };`,
      )(fn, translate, guardIterator) as (...args: unknown[]) => unknown,
    () =>
      function (this: unknown): unknown {
        try {
          // biome-ignore lint/complexity/noArguments: forwarded as they came, without a rest array
          const result = fn.apply(this, arguments as unknown as unknown[]);
          return generator ? guardIterator(result as Iterator<unknown>, this) : result;
        } catch (e) {
          throw translate(this, e);
        }
      },
  );
  Object.defineProperty(guarded, 'name', { value: fn.name });
  Object.defineProperty(guarded, 'length', { value: fn.length });
  (guarded as { guarded?: true }).guarded = true;
  return guarded;
}

function* guardIterator<T>(it: Iterator<T>, self: unknown): Generator<T, void, undefined> {
  try {
    for (;;) {
      const step = it.next();
      if (step.done) return;
      yield step.value;
    }
  } catch (e) {
    throw translate(self, e);
  } finally {
    it.return?.();
  }
}
