// Explore entries (help/source/BookSourceExtensions.kt exploreKinds): `exploreUrl` is a JSON array
// of {title, url, style}, or `name::url` lines split at newlines and `&&`, or `@js:`/`<js>`
// giving either. As in the app, a failure becomes one entry titled `ERROR:<message>`.
import type { ExploreKind } from '../engine/types.js';
import type { FlowEnv } from './env.js';
import { JsUnavailableError } from '../errors.js';

const isJsonArray = (s: string): boolean => {
  const t = s.trim();
  return t.startsWith('[') && t.endsWith(']');
};

export async function exploreKinds(env: FlowEnv): Promise<ExploreKind[]> {
  const exploreUrl = env.source.exploreUrl;
  if (!exploreUrl || exploreUrl.trim() === '') return [];
  try {
    let text = exploreUrl;
    const lower = exploreUrl.slice(0, 4).toLowerCase();
    if (lower === '<js>' || lower === '@js:') {
      const code = lower === '@js:' ? exploreUrl.slice(4) : exploreUrl.slice(4, exploreUrl.lastIndexOf('<'));
      if (!env.js) throw new JsUnavailableError(code);
      const v = await env.js.sourceScript(code, {}, 'exploreUrl');
      text = (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))).trim();
    }
    if (isJsonArray(text)) return kindsOfJson(text);
    return text.split(/(?:&&|\n)+/).map((line) => {
      const parts = line.split('::');
      return { title: parts[0] ?? '', url: parts[1] ?? '' };
    });
  } catch (e) {
    return [{ title: `ERROR:${e instanceof Error ? e.message : String(e)}`, url: '' }];
  }
}

function kindsOfJson(text: string): ExploreKind[] {
  const list = JSON.parse(text) as unknown;
  if (!Array.isArray(list)) throw new Error('exploreUrl: not a JSON array');
  return list.map((k: unknown) => {
    const o = (k && typeof k === 'object' ? k : {}) as Record<string, unknown>;
    const title = typeof o['title'] === 'string' ? o['title'] : '';
    const url = typeof o['url'] === 'string' ? o['url'] : '';
    return o['style'] !== undefined && o['style'] !== null ? { title, url, style: o['style'] } : { title, url };
  });
}
