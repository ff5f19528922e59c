// What the app's WebSocket endpoints answer from a store without the rule engine, for any host
// (the Node shell's `ws` server on port + 1, a Worker's WebSocketPair): one message in the
// app's form saying so, then a normal close with the app's closing reason.
import { NO_ENGINE } from './context.js';

/** Each path's closing reason, as the app's sockets give it. */
export const SOCKET_FINISH: Readonly<Record<string, string>> = {
  '/searchBook': 'Search finish',
  '/bookSourceDebug': '调试结束',
  '/rssSourceDebug': '调试结束',
};
const NOT_JSON = '数据必须为Json格式';
const EMPTY = '不能为空';

/** The message the app sends back for the first message `text` on the socket at `path` (one of SOCKET_FINISH's). */
export function socketReply(path: string, text: string): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    message = undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return NOT_JSON;
  const m = message as Record<string, unknown>;
  const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
  return (path === '/searchBook' ? blank(m.key) : blank(m.tag) || blank(m.key)) ? EMPTY : NO_ENGINE;
}
