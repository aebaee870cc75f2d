/**
 * The airline calendar of τ²'s DB: flight dates 2024-05-01 to 2024-05-30 and the fixed clock 2024-05-15 15:00
 * EST. Sandbox times are whole minutes counted from 2024-05-01 00:00 ("calendar minutes"); these helpers write
 * them in τ²'s formats.
 */

/** Flight dates per flight (2024-05-01 … 2024-05-30). */
export const DATE_COUNT = 30;
/** Day index of the clock's date, 2024-05-15 (day 0 is 2024-05-01). */
export const CLOCK_DAY = 14;
export const MINUTES_PER_DAY = 1440;
/** The clock, 2024-05-15 15:00, in calendar minutes. */
export const CLOCK_MINUTE = CLOCK_DAY * MINUTES_PER_DAY + 15 * 60;

const EPOCH_MS = Date.UTC(2024, 4, 1);

const pad = (n: number): string => String(n).padStart(2, '0');

function at(minute: number): Date {
  return new Date(EPOCH_MS + minute * 60_000);
}

/** `"2024-05-DD"` for a day index (may run past May: day 30 is `"2024-05-31"`, day 31 `"2024-06-01"`). */
export function dateKey(day: number): string {
  const d = at(day * MINUTES_PER_DAY);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `"YYYY-MM-DDTHH:MM:SS"` for calendar minutes (and extra seconds, for `created_at`). */
export function isoTime(minute: number, seconds = 0): string {
  const d = at(minute);
  return `${dateKey(Math.floor(minute / MINUTES_PER_DAY))}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(seconds)}`;
}

/** `"HH:MM:SS"` for minutes after midnight below one day, `"HH:MM:SS+1"` from one day on (τ²'s overnight form). */
export function clockTime(minuteOfDay: number): string {
  const m = minuteOfDay % MINUTES_PER_DAY;
  const text = `${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`;
  return minuteOfDay >= MINUTES_PER_DAY ? `${text}+1` : text;
}
