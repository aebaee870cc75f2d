/**
 * The CPython 3.11 tokenizer, reduced to the characters τ²'s `calculate` lets through (`0-9 + - * / ( ) .` and
 * space). Produces every token up front and remembers where the first tokenizer error sits: the parser raises
 * it only when it asks for that token, as CPython's lazy tokenizer does.
 */

/** Token kinds. `NEWLINE` and `ENDMARKER` are synthesized by the parser at the end of the input. */
export type TokKind = 'NUMBER' | '+' | '-' | '*' | '**' | '/' | '//' | '(' | ')' | '.' | '...';

export interface Tok {
  readonly kind: TokKind;
  /** Source text (only meaningful for `NUMBER`). */
  readonly text: string;
  /** Parenthesis nesting after this token, as CPython records it (`tok->level`). */
  readonly level: number;
}

export interface Tokenized {
  readonly toks: Tok[];
  /** Index of the token the tokenizer fails on (`toks.length` when it fails; `Infinity` when it never does). */
  readonly errorAt: number;
  readonly errorMessage: string;
  /** True when some `(` is still open at the end of the input. */
  readonly unclosed: boolean;
}

/** CPython's `MAXLEVEL`: the 201st nested `(` is a tokenizer error. */
const MAX_PAREN_LEVEL = 200;

const LEADING_ZEROS =
  'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers';

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Tokenizes `src` (already stripped of leading spaces, non-empty, only allowed characters). */
export function tokenize(src: string): Tokenized {
  const toks: Tok[] = [];
  let level = 0;
  let i = 0;
  const fail = (message: string): Tokenized => ({
    toks,
    errorAt: toks.length,
    errorMessage: message,
    unclosed: false,
  });
  const push = (kind: TokKind, text: string = kind): void => {
    toks.push({ kind, text, level });
  };
  while (i < src.length) {
    const c = src[i];
    if (c === ' ') {
      i++;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
      const start = i;
      if (c === '0') {
        while (src[i] === '0') i++;
        const nonzero = isDigit(src[i]);
        while (isDigit(src[i])) i++;
        if (src[i] === '.') {
          i++;
          while (isDigit(src[i])) i++;
        } else if (nonzero) {
          return fail(LEADING_ZEROS);
        }
      } else {
        while (isDigit(src[i])) i++;
        if (src[i] === '.') {
          i++;
          while (isDigit(src[i])) i++;
        }
      }
      push('NUMBER', src.slice(start, i));
      continue;
    }
    i++;
    switch (c) {
      case '(':
        if (level >= MAX_PAREN_LEVEL) return fail('too many nested parentheses');
        level++;
        push('(');
        break;
      case ')':
        if (level === 0) return fail("unmatched ')'");
        level--;
        push(')');
        break;
      case '*':
      case '/':
        if (src[i] === c) {
          i++;
          push(c === '*' ? '**' : '//');
        } else {
          push(c);
        }
        break;
      case '.':
        if (src[i] === '.' && src[i + 1] === '.') {
          i += 2;
          push('...');
        } else {
          push('.');
        }
        break;
      default:
        push(c === '+' ? '+' : '-');
    }
  }
  return { toks, errorAt: Number.POSITIVE_INFINITY, errorMessage: '', unclosed: level > 0 };
}
