// The 阅读 2.0 replace-rule format (regex, replaceSummary, useTo, enable, serialNumber),
// converted as the app's ReplaceAnalyzer does (reference 4.1): a rule without a pattern is
// read as 2.0 format, and one without a regex either is not a rule.

type Rec = Record<string, unknown>;

/** Current field → 2.0 key. */
export const LEGACY_REPLACE_FIELDS: Readonly<Record<string, string>> = {
  id: 'id',
  pattern: 'regex',
  name: 'replaceSummary',
  replacement: 'replacement',
  isRegex: 'isRegex',
  scope: 'useTo',
  isEnabled: 'enable',
  order: 'serialNumber',
};

/** What the converter gives a missing 2.0 field (readBool(...) == true, readInt(...) ?: 0). */
export const LEGACY_REPLACE_DEFAULTS: Readonly<Record<string, unknown>> = {
  name: '',
  replacement: '',
  isRegex: false,
  isEnabled: false,
  order: 0,
};

const blankText = (v: unknown): boolean => typeof v !== 'string' || v.trim() === '';

export function isLegacyReplaceRule(o: Rec): boolean {
  return blankText(o.pattern);
}

/** The current-format rule, or undefined when the record has no regex to convert. */
export function convertLegacyReplaceRule(o: Rec): Rec | undefined {
  if (blankText(o.regex)) return undefined;
  const out: Rec = {};
  for (const [field, from] of Object.entries(LEGACY_REPLACE_FIELDS)) {
    const v = o[from];
    if (v !== undefined && v !== null) out[field] = v;
    else if (field in LEGACY_REPLACE_DEFAULTS) out[field] = LEGACY_REPLACE_DEFAULTS[field];
  }
  return out;
}

export const LEGACY_REPLACE_KEYS: ReadonlySet<string> = new Set(Object.values(LEGACY_REPLACE_FIELDS));
