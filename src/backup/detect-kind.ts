// Telling what a rule file holds from the keys of its first record, as the app's file
// association does (BaseAssociationViewModel, reference 4.1), plus the 2.0 replace-rule keys.

export interface KindSign {
  /** Every one of these keys must be present. */
  readonly keys: readonly string[];
  readonly kind: string;
}

/** Checked in order; the first match wins. */
export const KIND_SIGNS: readonly KindSign[] = [
  { keys: ['bookSourceUrl'], kind: 'bookSource' },
  { keys: ['sourceUrl'], kind: 'rssSource' },
  { keys: ['pattern'], kind: 'replaceRule' },
  { keys: ['themeName'], kind: 'theme' },
  { keys: ['showRule'], kind: 'dictRule' },
  { keys: ['name', 'rule'], kind: 'txtTocRule' },
  { keys: ['name', 'url'], kind: 'httpTTS' },
  // 阅读 2.0 replace rules: the app's association does not know them, its replace dialog does.
  { keys: ['regex', 'replaceSummary'], kind: 'replaceRule' },
];

export function detectKind(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  return KIND_SIGNS.find((s) => s.keys.every((k) => k in record))?.kind;
}
