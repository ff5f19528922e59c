// The body limit of one WebDAV request, attached to its AbortSignal (the one handle the library
// passes through to our fetch untouched) and read there (fetch.ts). Kept apart from fetch.ts so
// that the client can set limits without loading the library before its first request.

/** At most `bytes` of body; `refuse(announced)` makes the error (announced: the Content-Length, when over). */
export interface BodyLimit {
  readonly bytes: number;
  readonly refuse: (announced: number | undefined) => Error;
}

const limits = new WeakMap<AbortSignal, BodyLimit>();

/** Gives the request sent with `signal` a body limit; returns the signal. */
export function limitBody(signal: AbortSignal, limit: BodyLimit): AbortSignal {
  limits.set(signal, limit);
  return signal;
}

export function limitOf(signal: AbortSignal | null | undefined): BodyLimit | undefined {
  return signal ? limits.get(signal) : undefined;
}
