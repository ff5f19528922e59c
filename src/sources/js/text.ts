// A script's value as text, as the app writes it into a `{{js}}` template or a rule's result:
// an integral number without ".0" (the app's String.format("%.0f")), other numbers as Java's
// Double.toString, null and undefined as nothing.

/** The app's text of a script value. */
export function scriptValueToString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (v === null || v === undefined ? '' : scriptValueToString(v))).join(',');
  if (typeof value === 'object') return '[object Object]';
  return String(value);
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  // %.0f: every digit, never an exponent (1e21 is "1000000000000000000000"); -0 is "-0".
  if (n % 1 === 0) return Object.is(n, -0) ? '-0' : BigInt(n).toString();
  return javaDouble(n);
}

/** Java's Double.toString of a finite, non-integral double: plain between 10^-3 and 10^7, else d.dddE±n. */
function javaDouble(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) return String(n);
  const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}
