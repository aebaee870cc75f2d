import { pyFloatRepr, pyRound } from '../core/py-float.js';

/**
 * τ²'s communicate rule (`CommunicateEvaluator`, τ²'s `CommunicateEvaluator`): `info` is communicated when some
 * non-blank assistant text contains it case-insensitively after commas are removed from the text
 * (so "1,628" matches "1628").
 */
export function isCommunicated(info: string, agentTexts: readonly string[]): boolean {
  const needle = info.toLowerCase();
  return agentTexts.some((t) => t.trim() !== '' && t.toLowerCase().replaceAll(',', '').includes(needle));
}

/** A money value as the information constraint expects it said: Python's `str(round(x, 2))`. */
export function moneyText(x: number): string {
  return pyFloatRepr(pyRound(x, 2));
}
