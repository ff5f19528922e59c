// A source's concurrentRate (help/ConcurrentRateLimiter.kt), shared by every client of the same
// source on the same host object: `"N"` lets one request run at a time and starts the next N ms
// after the last start; `"a/b"` starts at most a requests in any b ms (a sliding window: the app
// counts a fixed window from its first start and lets one more through, which a site counting
// strictly answers with 429). Blank, `"0"` or unreadable: no limit. A wait is a timer of at most
// the rate's own milliseconds, cleared when the caller's signal aborts.

export interface RateLimiter {
  /** Waits for a turn; the returned function ends the request (frees the one in flight). */
  acquire(signal?: AbortSignal): Promise<() => void>;
}

const NONE: RateLimiter = { acquire: async () => () => {} };

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A gate that lets one caller through at a time, in arrival order. */
class Turns {
  #tail: Promise<void> = Promise.resolve();
  take(): Promise<() => void> {
    let free!: () => void;
    const mine = new Promise<void>((r) => (free = r));
    const before = this.#tail;
    this.#tail = before.then(() => mine);
    return before.then(() => free);
  }
}

class GapLimiter implements RateLimiter {
  readonly #turns = new Turns();
  #lastStart = Number.NEGATIVE_INFINITY;
  constructor(
    readonly gapMs: number,
    readonly now: () => number,
  ) {}

  async acquire(signal?: AbortSignal): Promise<() => void> {
    const free = await this.#turns.take();
    try {
      const wait = this.#lastStart + this.gapMs - this.now();
      if (wait > 0) await sleep(wait, signal);
    } catch (e) {
      free();
      throw e;
    }
    this.#lastStart = this.now();
    return free;
  }
}

class WindowLimiter implements RateLimiter {
  readonly #turns = new Turns();
  readonly #starts: number[] = [];
  constructor(
    readonly count: number,
    readonly windowMs: number,
    readonly now: () => number,
  ) {}

  async acquire(signal?: AbortSignal): Promise<() => void> {
    const free = await this.#turns.take();
    try {
      for (;;) {
        const now = this.now();
        while (this.#starts.length > 0 && now - this.#starts[0]! >= this.windowMs) this.#starts.shift();
        if (this.#starts.length < this.count) break;
        await sleep(this.#starts[0]! + this.windowMs - now, signal);
      }
      this.#starts.push(this.now());
    } finally {
      free(); // the window counts starts, not requests in flight
    }
    return () => {};
  }
}

/** The limiter a `concurrentRate` text asks for (NONE when it asks for none). */
export function rateLimiter(rate: string | null | undefined, now: () => number = Date.now): RateLimiter {
  const text = (rate ?? '').trim();
  if (text === '' || text === '0') return NONE;
  const slash = text.indexOf('/');
  if (slash > 0) {
    const count = Number(text.slice(0, slash));
    const ms = Number(text.slice(slash + 1));
    if (Number.isInteger(count) && count > 0 && Number.isFinite(ms) && ms > 0) return new WindowLimiter(count, ms, now);
    return NONE;
  }
  const gap = Number(text);
  return Number.isFinite(gap) && gap > 0 ? new GapLimiter(gap, now) : NONE;
}

const shared = new WeakMap<object, Map<string, { rate: string; limiter: RateLimiter }>>();

/** The limiter of `key` (a bookSourceUrl) on `host`, the same object for every client of that source there. */
export function sharedLimiter(host: object, key: string, rate: string | null | undefined): RateLimiter {
  let m = shared.get(host);
  if (!m) shared.set(host, (m = new Map()));
  const text = (rate ?? '').trim();
  const kept = m.get(key);
  if (kept && kept.rate === text) return kept.limiter;
  const limiter = rateLimiter(text);
  m.set(key, { rate: text, limiter });
  return limiter;
}
