/** One lexical token of an SQL statement as SQLite reads it. */
export interface SqlToken {
  readonly kind: 'word' | 'quoted' | 'string' | 'number' | 'param' | 'semicolon' | 'op' | 'blob';
  /** The token's text; for `quoted` the identifier without quotes, for `param` the name without its sigil. */
  readonly text: string;
  /** The raw sigil of a parameter (`:`, `@`, `$`, `?`), else ''. */
  readonly sigil: string;
  readonly offset: number;
}

/** Thrown by {@link tokenizeSql} for text SQLite would not read as one clean token stream. */
export class SqlLexError extends Error {}

const WORD_START = /[A-Za-z_]/;
const WORD_PART = /[A-Za-z0-9_$]/;

/**
 * Splits SQL text into tokens following SQLite's lexical rules: `--` and `/* *\/` comments and whitespace are
 * dropped; `'…'` strings (with `''` escapes), `"…"`, `` `…` `` and `[…]` quoted identifiers; `:name`, `@name`,
 * `$name` and `?NNN` parameters. Outside strings and quoted identifiers only ASCII is accepted, so unicode
 * look-alikes of keywords or quotes never reach SQLite as something the analysis did not see.
 * @throws {SqlLexError} for an unterminated string, identifier or comment, or a non-ASCII character.
 */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const push = (kind: SqlToken['kind'], text: string, offset: number, sigil = '') =>
    tokens.push({ kind, text, sigil, offset });
  while (i < sql.length) {
    const c = sql[i] as string;
    const start = i;
    if (/\s/.test(c) && c.charCodeAt(0) < 128) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw new SqlLexError(`unterminated comment at offset ${i}`);
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let text = '';
      i++;
      for (;;) {
        if (i >= sql.length) throw new SqlLexError(`unterminated ${c} at offset ${start}`);
        const d = sql[i] as string;
        if (d === close) {
          if (close !== ']' && sql[i + 1] === close) {
            text += d;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += d;
        i++;
      }
      if (c === "'" && tokens.at(-1)?.text.toLowerCase() === 'x' && tokens.at(-1)?.offset === start - 1) {
        tokens.pop();
        push('blob', text, start - 1);
      } else push(c === "'" ? 'string' : 'quoted', text, start);
    } else if (c === ':' || c === '@' || c === '$') {
      i++;
      while (i < sql.length && WORD_PART.test(sql[i] as string)) i++;
      if (i === start + 1) throw new SqlLexError(`bare '${c}' at offset ${start}`);
      push('param', sql.slice(start + 1, i), start, c);
    } else if (c === '?') {
      i++;
      while (i < sql.length && /[0-9]/.test(sql[i] as string)) i++;
      push('param', sql.slice(start + 1, i), start, '?');
    } else if (WORD_START.test(c)) {
      while (i < sql.length && WORD_PART.test(sql[i] as string)) i++;
      push('word', sql.slice(start, i), start);
    } else if (/[0-9.]/.test(c) && /[0-9]/.test(c === '.' ? (sql[i + 1] ?? '') : c)) {
      while (i < sql.length && /[0-9A-Za-z_.]/.test(sql[i] as string)) {
        if (/[eE]/.test(sql[i] as string) && /[+-]/.test(sql[i + 1] ?? '')) i++;
        i++;
      }
      push('number', sql.slice(start, i), start);
    } else if (c === ';') {
      i++;
      push('semicolon', ';', start);
    } else if (c.charCodeAt(0) < 128) {
      const two = sql.slice(i, i + 2);
      const op = ['||', '<=', '>=', '<>', '!=', '==', '<<', '>>', '->'].includes(two) ? two : c;
      i += op.length;
      push('op', op, start);
    } else {
      throw new SqlLexError(
        `non-ASCII character U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} outside a string at offset ${i}`,
      );
    }
  }
  return tokens;
}
