// Reading a rule without content: every piece compiled as it would run (CSS selectors, JSoup
// steps, XPath, JSONPath, AllInOne regexes), a RuleError for what cannot be read, and whether
// the rule needs JavaScript. Templates are checked where they are fixed text.
import { compileRule, isInnerRule, listRule } from './rule.js';
import { checkJsoupRule } from './jsoup.js';
import { checkXPathRule } from './xpath.js';
import { checkJsonRule } from './jsonpath.js';
import { checkAllInOne } from './regex.js';

export interface RuleCheck {
  /** A `<js>`, `@js:` or `{{js}}` piece: runs only with a JavaScript evaluator. */
  readonly js: boolean;
}

export interface CheckOptions {
  /** A list rule (bookList, chapterList, init): a leading `:` is AllInOne, `-`/`+` order marks. */
  readonly list?: boolean;
  /** Read as on JSON content: unprefixed pieces are JSONPath. */
  readonly json?: boolean;
}

/** Compiles a rule string as the engine would; throws RuleError where it cannot be read. */
export function checkRule(rule: string, options: CheckOptions = {}): RuleCheck {
  const list = options.list === true;
  const text = list ? listRule(rule).rule : rule;
  const compiled = compileRule(text, options.json === true, false, list);
  let js = false;
  for (const piece of compiled.rules) {
    for (const [, r] of piece.put) js = checkRule(r, { json: options.json === true }).js || js;
    if (piece.mode === 'js') {
      js = true;
      continue;
    }
    for (const p of piece.params) {
      if (p.kind !== 'eval') continue;
      if (isInnerRule(p.value)) js = checkRule(p.value, { json: options.json === true }).js || js;
      else js = true;
    }
    const body = list ? piece.raw : piece.fixed?.rule;
    if (body === undefined || body === '') continue;
    if (piece.mode === 'default') checkJsoupRule(body, list);
    else if (piece.mode === 'xpath') checkXPathRule(body);
    else if (piece.mode === 'json') checkJsonRule(body);
    else if (piece.mode === 'regex' && compiled.allInOne)
      checkAllInOne(
        body
          .split('&&')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      );
  }
  return { js };
}
