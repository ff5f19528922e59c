// The app's answer envelope (ReturnData): `isSuccess`, `errorMsg`, `data`, written by the app's
// Gson (pretty, nulls left out). A fresh ReturnData says "unknown error" and is not a success;
// setData makes it one with an empty errorMsg. Lists over 3,000 items are streamed, as the app
// pipes them, so a large answer is never one string in memory.
import { gsonPretty } from '../backup/gson.js';

/** ReturnData's starting message, which answers that never call setData keep. */
export const UNKNOWN_ERROR = '未知错误,请联系开发者!';
/** Lists longer than this are streamed (HttpServer.kt). */
export const STREAM_OVER = 3000;

export interface Envelope {
  readonly isSuccess: boolean;
  readonly errorMsg: string;
  readonly data?: unknown;
}

export const ok = (data: unknown): Envelope => ({ isSuccess: true, errorMsg: '', data });
export const fail = (errorMsg: string): Envelope => ({ isSuccess: false, errorMsg });
/** A ReturnData the controller returned untouched (the replace-rule quirk). */
export const untouched = (): Envelope => ({ isSuccess: false, errorMsg: UNKNOWN_ERROR });

const JSON_TYPE = 'application/json';
const encoder = new TextEncoder();
/** Items encoded per pull of a streamed answer. */
const ITEMS_PER_CHUNK = 200;

/** The envelope as the app sends it: one text, or a stream for a long list. */
export function envelopeResponse(env: Envelope, headers: Record<string, string> = {}): Response {
  const h = { 'Content-Type': JSON_TYPE, ...headers };
  const data = env.data;
  if (Array.isArray(data) && data.length > STREAM_OVER) return new Response(streamEnvelope(env, data), { headers: h });
  const body: Record<string, unknown> = { isSuccess: env.isSuccess, errorMsg: env.errorMsg };
  if (data !== undefined && data !== null) body.data = data;
  // A fixed length, as the app's newFixedLengthResponse: set here, so every host sends it.
  const bytes = encoder.encode(gsonPretty(body));
  return new Response(bytes, { headers: { ...h, 'Content-Length': String(bytes.byteLength) } });
}

/** The same text as gsonPretty of the whole envelope, made a few hundred items at a time. */
function streamEnvelope(env: Envelope, items: readonly unknown[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = '';
      if (i === 0) text += `{\n  "isSuccess": ${env.isSuccess},\n  "errorMsg": ${gsonPretty(env.errorMsg)},\n  "data": [`;
      const end = Math.min(items.length, i + ITEMS_PER_CHUNK);
      for (; i < end; i++) {
        // Items sit two levels deep: every line of their own pretty text moves in by 4 spaces
        // (JSON strings hold no raw line breaks, so every \n is a layout one).
        text += (i === 0 ? '\n    ' : ',\n    ') + gsonPretty(items[i] ?? null).replace(/\n/g, '\n    ');
      }
      if (i >= items.length) {
        text += '\n  ]\n}';
        controller.enqueue(encoder.encode(text));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

/**
 * The envelope with the CORS header the app puts on every API answer. The app also echoes any
 * Origin as Access-Control-Allow-Origin; here only an origin the operator listed gets that, from
 * the front door (app.ts, origin-policy.ts).
 */
export function apiAnswer(env: Envelope, status = 200): Response {
  const res = envelopeResponse(env, { 'Access-Control-Allow-Methods': 'GET, POST' });
  return status === 200 ? res : new Response(res.body, { status, headers: res.headers });
}
