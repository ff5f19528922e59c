// A URL rule that cannot become a request. It names the source and the rule (without its options,
// cut to a readable length); it never carries header or cookie values, which may be secrets.
import { LegadoStoreError } from '../../errors.js';

/** The rule as messages print it: its options (headers, bodies: maybe secrets) left out, cut to a readable length. */
export function printableRule(rule: string): string {
  const at = rule.search(/\s*,\s*\{/);
  const url = at < 0 ? rule : `${rule.slice(0, at)},{…}`;
  return url.length > 80 ? `${url.slice(0, 77)}...` : url;
}

export class UrlRuleError extends LegadoStoreError {
  constructor(
    /** The source's bookSourceUrl. */
    readonly source: string,
    readonly rule: string,
    readonly reason: string,
  ) {
    super('BAD_URL_RULE', `source ${JSON.stringify(source)}: URL rule ${JSON.stringify(printableRule(rule))}: ${reason}`);
  }
}
