/** Median of a list of numbers. */
export function p50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Rounds to a few significant decimals for a readable report. */
export function round(x: number, digits = 3): number {
  return Number(x.toFixed(digits));
}
