// The iteration order of a java.util.HashSet<String> (OpenJDK's HashMap, as Android's ART has it),
// because the app writes a source's groups back as `TextUtils.join(",", hashSet)`: after a check
// the group text is in this order, not in the order the user typed it. Buckets are
// `spread(hashCode) & (capacity - 1)`; a bucket keeps insertion order (resizing splits a bucket
// without reordering it), so the order is the insertion order sorted stably by bucket.

/** `String.hashCode()`: over UTF-16 code units, 32-bit wrapping. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Kotlin's `mapCapacity(n)`: the initial capacity `toHashSet()` asks for. */
function kotlinMapCapacity(n: number): number {
  if (n < 3) return n + 1;
  return Math.trunc(Math.fround(Math.fround(n / 0.75) + 1));
}

/** `HashMap.tableSizeFor`: the next power of two, at least 1. */
function tableSizeFor(c: number): number {
  let n = 1;
  while (n < c) n *= 2;
  return n;
}

export class JavaHashSet {
  private readonly items: string[] = [];
  private capacity: number;

  /** As Kotlin's `Array<String>.toHashSet()` builds it: sized for `initial`, then each added. */
  constructor(initial: readonly string[]) {
    this.capacity = tableSizeFor(kotlinMapCapacity(initial.length));
    this.addAll(initial);
  }

  addAll(values: readonly string[]): void {
    for (const v of values) {
      if (this.items.includes(v)) continue;
      this.items.push(v);
      // HashMap resizes when the size passes capacity × 0.75 (rounded down).
      if (this.items.length > Math.floor(this.capacity * 0.75)) this.capacity *= 2;
    }
  }

  removeAll(values: readonly string[]): void {
    for (const v of values) {
      const i = this.items.indexOf(v);
      if (i >= 0) this.items.splice(i, 1);
    }
  }

  /** The iteration order. */
  values(): string[] {
    const bucket = (s: string) => {
      const h = javaStringHash(s);
      return (h ^ (h >>> 16)) & (this.capacity - 1);
    };
    return this.items
      .map((s, i) => ({ s, i, b: bucket(s) }))
      .sort((a, b) => a.b - b.b || a.i - b.i)
      .map((e) => e.s);
  }
}
