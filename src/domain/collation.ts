// The app sorts some lists with Android's `localized` SQLite collation (bookmarks, reading
// records) or with a Chinese java.text.Collator (book names, group lists). Plain SQLite has no
// `localized` collation and better-sqlite3 cannot register one, so those lists are sorted here
// in JavaScript with Intl.Collator('zh'): pinyin order for Chinese, Chinese before Latin.
// It is close to, not byte-for-byte the same as, Android's ICU order.

// Made on first use: loading the Chinese collation data took 6 ms of every Node process's start.
let made: Intl.Collator | undefined;
const zh = (): Intl.Collator => (made ??= new Intl.Collator('zh'));

/** Compares two strings the way the app's Chinese-aware sorts do. */
export function compareLocalized(a: string, b: string): number {
  return zh().compare(a, b);
}

type Key<T> = (item: T) => string | number;

/**
 * A comparator over several keys in turn: strings compare with the Chinese collator, numbers
 * numerically. Prefix a key with `desc` for descending order.
 */
export function byKeys<T>(...keys: readonly (Key<T> | { desc: Key<T> })[]): (a: T, b: T) => number {
  return (a, b) => {
    const collator = zh();
    for (const k of keys) {
      const [key, sign] = typeof k === 'function' ? [k, 1] : [k.desc, -1];
      const x = key(a);
      const y = key(b);
      const c = typeof x === 'string' && typeof y === 'string' ? collator.compare(x, y) : x < y ? -1 : x > y ? 1 : 0;
      if (c !== 0) return c * sign;
    }
    return 0;
  };
}
