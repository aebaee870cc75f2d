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

/** Byte count in MB or GB. */
export const bytes = (x: number): string =>
  x >= 2 ** 30 ? `${(x / 2 ** 30).toFixed(2)} GB` : `${(x / 2 ** 20).toFixed(1)} MB`;

/** What a partial answer covers: "12.5 % of 2.47 GB indexed". */
export const indexedShare = (c: { bytes: number; bytesTotal: number }): string =>
  `${c.bytesTotal === 0 ? '0.0' : ((100 * c.bytes) / c.bytesTotal).toFixed(1)} % of ${bytes(c.bytesTotal)} indexed`;
