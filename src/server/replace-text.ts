// A replace rule applied to a text, as the app's testReplaceRule does: a regex rule through the
// local books' replace machinery (the rule read as the app's Java regex, translated, with its
// time limit, and Java's replacement syntax), a plain rule as Java's String.replace of every
// occurrence (an empty pattern puts the replacement around every character, as Java does).
import { JavaRegexError } from '../text/java-regex.js';
import { applyRule } from '../localbook/replace.js';

/** The replaced text; the app's exception text when the pattern does not compile. */
export function replaceText(text: string, pattern: string, replacement: string, isRegex: boolean): string {
  if (!isRegex) return text.replaceAll(pattern, () => replacement);
  try {
    return applyRule(text, { name: 'testReplaceRule', pattern, replacement, isRegex: true });
  } catch (e) {
    if (e instanceof JavaRegexError) return `java.util.regex.PatternSyntaxException: ${e.reason}`;
    throw e;
  }
}
