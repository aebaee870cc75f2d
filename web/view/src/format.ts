/** Share as a percentage with one decimal. */
export const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
/** Number with thousands separators. */
export const int = (x: number): string => Math.round(x).toLocaleString('en-US');
export const usd = (x: number): string => `$${x.toFixed(x >= 100 ? 0 : x >= 1 ? 2 : 4)}`;
export const num = (x: number | null, digits = 3): string =>
  x === null ? '–' : String(Number(x.toFixed(digits)));

/** Pretty JSON of a JSON text, or the text itself when it is not JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
