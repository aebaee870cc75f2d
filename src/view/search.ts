/**
 * The pattern of a text search in raw record lines: the query as JSON writes it inside a string (quotes and
 * backslashes escaped), as UTF-8 bytes read one byte per character (lines are searched as latin1 text, which
 * is fast), case-insensitive for ASCII letters; other characters match exactly.
 */
export function searchPattern(text: string): RegExp {
  const escaped = JSON.stringify(text).slice(1, -1);
  const bytes = Buffer.from(escaped, 'utf8').toString('latin1');
  return new RegExp(bytes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** Case-insensitive test of plain text (for records held in memory). */
export function textMatches(haystack: string, text: string): boolean {
  return haystack.toLowerCase().includes(text.toLowerCase());
}
