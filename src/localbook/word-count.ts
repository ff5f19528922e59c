// The app's StringUtils.wordCountFormat(Int): "N字", above 10,000 "N.N万字" (DecimalFormat "#.#"
// on a float divided by 10000, rounded half-even), nothing for 0.

export function wordCountFormat(words: number): string {
  if (words <= 0) return '';
  if (words <= 10000) return `${words}字`;
  const v = Math.fround(Math.fround(words) / 10000);
  // Exact ties (v * 20 an odd integer) round to even; v * 20 is exact for a float.
  const twenty = v * 20;
  let tenths: number;
  if (Number.isInteger(twenty) && twenty % 2 === 1) {
    const down = (twenty - 1) / 2;
    tenths = down % 2 === 0 ? down : down + 1;
  } else tenths = Math.round(v * 10);
  const whole = Math.floor(tenths / 10);
  const frac = tenths % 10;
  return `${frac === 0 ? whole : `${whole}.${frac}`}万字`;
}
