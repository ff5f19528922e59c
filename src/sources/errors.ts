// Errors of book-source rules: a rule that cannot be read, a rule that needs JavaScript where
// no evaluator was given. Both name the rule (cut to a readable length) and what is wrong.
import { LegadoStoreError } from '../errors.js';

const cut = (rule: string): string => JSON.stringify(rule.length > 80 ? `${rule.slice(0, 77)}...` : rule);

/** A rule the engine cannot read: unbalanced brackets, a selector, XPath, JSONPath or regex that does not compile. */
export class RuleError extends LegadoStoreError {
  constructor(
    readonly rule: string,
    readonly reason: string,
  ) {
    super('BAD_RULE', `rule ${cut(rule)}: ${reason}`);
  }
}

/** A rule with a JavaScript part (`<js>`, `@js:`, `{{js}}`) evaluated without a JavaScript evaluator. */
export class JsUnavailableError extends LegadoStoreError {
  constructor(readonly script: string) {
    super('JS_UNAVAILABLE', `the rule needs JavaScript (${cut(script)}) and no evaluator was given`);
  }
}
