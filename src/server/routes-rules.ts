// Replace rules (ReplaceRuleController.kt). Its quirks, kept: the list is a JSON *string* inside
// the envelope, and save/delete never call setData, so they answer isSuccess false with the
// starting "unknown error" message even when they worked (the front-end expects exactly that).
import { gsonPretty } from '../backup/gson.js';
import { UNSET_ORDER } from '../domain/replace-rules.js';
import type { Routes } from './app.js';
import type { RouteContext } from './context.js';
import { isObject, parseJson, readEntity, toEntity } from './entities.js';
import { fail, ok, untouched } from './envelope.js';
import { replaceText } from './replace-text.js';
import { RuleTimeoutError } from '../localbook/errors.js';

export function ruleRoutes(routes: Routes, { store, options }: RouteContext): void {
  const t = () => store.tables.replace_rules;

  routes.get('/getReplaceRules', () => ok(gsonPretty(store.replaceRules.all().map((r) => toEntity(store, 'replace_rules', r)))));

  routes.post('/saveReplaceRule', ({ body }) => {
    if (body === undefined) return fail('数据不能为空');
    const rule = readEntity(store, 'replace_rules', body);
    if (!rule) return fail('格式不对');
    store.transaction(() => {
      const order = rule.order === undefined || rule.order === UNSET_ORDER ? store.replaceRules.nextOrder() : rule.order;
      t().upsert({ ...rule, order });
    });
    return untouched();
  });

  routes.post('/deleteReplaceRule', ({ body }) => {
    if (body === undefined) return fail('数据不能为空');
    // Only the key matters to a delete (Room deletes by id); a rule without a pattern is fine here.
    const rule = parseJson(body);
    if (!isObject(rule)) return fail('格式不对');
    const id = typeof rule.id === 'string' && /^-?\d+$/.test(rule.id) ? Number(rule.id) : rule.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return fail('格式不对');
    t().delete(id);
    return untouched();
  });

  routes.post('/testReplaceRule', async ({ body }) => {
    if (body === undefined) return fail('数据不能为空');
    const map = parseJson(body);
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return fail('格式不对');
    const given = (map as Record<string, unknown>).rule;
    // Read as Gson reads a ReplaceRule: missing fields at the entity's defaults (pattern and
    // replacement "", isRegex true); a field of the wrong type makes it no rule.
    const rule = typeof given === 'string' ? parseJson(given) : given;
    if (!isObject(rule)) return fail('格式不对');
    const field = <T>(name: string, type: string, fallback: T): T | undefined =>
      rule[name] === undefined || rule[name] === null ? fallback : typeof rule[name] === type ? (rule[name] as T) : undefined;
    const pattern = field('pattern', 'string', '');
    const replacement = field('replacement', 'string', '');
    const isRegex = field('isRegex', 'boolean', true);
    if (pattern === undefined || replacement === undefined || isRegex === undefined) return fail('格式不对');
    // The app sets "替换规则不能为空" for an empty pattern, then overwrites it with the result (kept).
    const text = (map as Record<string, unknown>).text;
    if (typeof text !== 'string') throw new Error(`java.lang.ClassCastException: text is ${text === undefined ? 'null' : typeof text}, not a String`);
    let content: string;
    try {
      content = await replaceText(text, pattern, replacement, isRegex, options.rules);
    } catch (e) {
      if (e instanceof RuleTimeoutError) return fail(e.message);
      content = `java.lang.IllegalArgumentException: ${(e as Error).message}`;
    }
    return ok(content);
  });
}
