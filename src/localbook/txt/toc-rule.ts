// Which TXT TOC rule a book gets, as the app's TextFile.getTocRule chooses: the enabled rules
// tried from the highest serialNumber down, each scored on the first block by its matches that
// start more than 1,000 characters after the end of the last one counted; the best score (at
// least 1) wins and a tie goes to the rule tried later. A rule that does not compile is skipped;
// one that runs past its time limit fails the choice with RuleTimeoutError.
import { JavaRegexError } from '../../text/java-regex.js';
import type { RuleRef } from '../errors.js';
import { compileGuarded, Deadline, matches } from '../regex-guard.js';

export interface TocRuleRow {
  readonly name: string;
  readonly rule: string;
  readonly serialNumber: number;
  readonly enable: boolean;
  readonly id?: number;
}

export interface ChosenRule {
  readonly row: TocRuleRow;
  readonly regex: RegExp;
}

/** The score of one rule on the first block (the app's count of spaced-out matches). */
export function scoreRule(regex: RegExp, text: string, deadline?: Deadline): number {
  let start = 0;
  let score = 0;
  for (const m of matches(regex, text, deadline)) {
    if (start === 0 || m.index - start > 1000) {
      score++;
      start = m.index + m[0].length;
    }
  }
  return score;
}

/** The rules in the order the app's DAO lists enabled ones (serialNumber, then id). */
export function daoOrder<T extends TocRuleRow>(rules: readonly T[]): T[] {
  return rules.filter((r) => r.enable).sort((a, b) => a.serialNumber - b.serialNumber || (a.id ?? 0) - (b.id ?? 0));
}

/** A TOC rule as errors name it. */
export const tocRuleRef = (row: Pick<TocRuleRow, 'name' | 'rule' | 'id'>): RuleRef => ({ kind: 'TOC rule', name: row.name, id: row.id, pattern: row.rule });

export function chooseTocRule(rules: readonly TocRuleRow[], firstBlock: string, notes: string[], limitMs: number): ChosenRule | undefined {
  let best = 1;
  let chosen: ChosenRule | undefined;
  for (const row of daoOrder(rules).reverse()) {
    let regex: RegExp;
    try {
      regex = compileGuarded(row.rule, { multiline: true }).regex;
    } catch (e) {
      if (!(e instanceof JavaRegexError)) throw e;
      notes.push(`TOC rule ${JSON.stringify(row.name)} skipped: ${e.reason}`);
      continue;
    }
    // A rule past its limit fails the whole choice (RuleTimeoutError names it): the user's rule
    // is broken, and the choice without it would not be the app's.
    const deadline = new Deadline(tocRuleRef(row), limitMs);
    const score = scoreRule(regex, firstBlock, deadline);
    deadline.stop();
    if (score >= best) {
      best = score;
      chosen = { row, regex };
    }
  }
  return chosen;
}
