// Comparing numbers as parseJsonExact gives them (number, or LosslessNumber for literals a double
// would change) without losing digits: 18446744073709551615 is not above a max of 2^64-1.
import { isLosslessNumber } from '../util/exact-json.js';

const INTEGER = /^-?\d+$/;

/** The literal text of a JSON number, or undefined for anything else. */
export function numberText(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v).toString() : String(v)) : undefined;
  if (isLosslessNumber(v)) return v.toString();
  return undefined;
}

/** Sign of a - b for two JSON numbers: exact between integers, as doubles otherwise. */
export function compareNumbers(a: unknown, b: unknown): number {
  const x = numberText(a);
  const y = numberText(b);
  if (x === undefined || y === undefined) return Number.NaN;
  if (INTEGER.test(x) && INTEGER.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  return Math.sign(Number(x) - Number(y));
}
