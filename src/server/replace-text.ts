// A replace rule applied to a text, as the app's testReplaceRule does: a regex rule through the
// local books' replace machinery (the rule read as the app's Java regex, translated, with its
// time limit, and Java's replacement syntax), a plain rule as Java's String.replace of every
// occurrence (an empty pattern puts the replacement around every character, as Java does).
import { JavaRegexError } from '../text/java-regex.js';
import { inThread, type AsyncRuleRunner } from '../localbook/api.js';

/** The replaced text; the app's exception text when the pattern does not compile. A rule past its limit throws RuleTimeoutError. */
export async function replaceText(text: string, pattern: string, replacement: string, isRegex: boolean, runner?: AsyncRuleRunner): Promise<string> {
  if (!isRegex) return text.replaceAll(pattern, () => replacement);
  const job = { text, rules: [{ name: 'testReplaceRule', pattern, replacement, isRegex: true }], raw: true };
  try {
    return (runner ? await runner.replace(job) : inThread.replace(job)).text;
  } catch (e) {
    if (e instanceof JavaRegexError) return `java.util.regex.PatternSyntaxException: ${e.reason}`;
    throw e;
  }
}
