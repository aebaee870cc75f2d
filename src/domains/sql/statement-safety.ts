import type Database from 'better-sqlite3';
import { SqlLexError, type SqlToken, tokenizeSql } from './sql-tokens.js';

/** Words a template may never contain (case-insensitive), whatever their position: each one reaches outside the data. */
const FORBIDDEN_WORDS = new Set([
  'attach',
  'detach',
  'pragma',
  'vacuum',
  'reindex',
  'analyze',
  'create',
  'drop',
  'alter',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'load_extension',
  'readfile',
  'writefile',
  'fts3_tokenizer',
]);

/** VDBE opcodes that open a b-tree: their p2 is a root page, their p3 the database index (0 = main). */
const OPEN_OPCODES = new Set(['OpenRead', 'OpenWrite', 'ReopenIdx']);

/** What the analysis learned of one accepted statement. */
export interface StatementInfo {
  /** Named parameters in order of first appearance, without their `:`. */
  readonly params: readonly string[];
  /** True when the statement cannot change the database (SQLite's own verdict). */
  readonly readonly: boolean;
  /** True when the statement returns rows (a SELECT, or a write with RETURNING). */
  readonly returnsRows: boolean;
  /** Tables the compiled statement opens, by name. */
  readonly tables: readonly string[];
  readonly tokens: readonly SqlToken[];
}

/** Why a statement was refused. */
export class UnsafeStatementError extends Error {}

function rootPages(db: Database.Database): Map<number, string> {
  const pages = new Map<number, string>();
  const rows = db.prepare('SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0').all() as {
    rootpage: number | bigint;
    tbl_name: string;
  }[];
  for (const r of rows) pages.set(Number(r.rootpage), r.tbl_name);
  return pages;
}

/**
 * Analyses one template statement against `db` (a scratch copy of the domain's database) and refuses it unless
 * it is a single statement over the allowed tables that only uses `:named` parameters. Checks, in order: the
 * token stream (no non-ASCII outside strings, no `;` followed by anything, no forbidden word — ATTACH, PRAGMA,
 * VACUUM, load_extension, DDL, transaction control — nor any `sqlite_*` / `pragma_*` name, quoted or not, and no
 * positional or `@`/`$` parameters); SQLite's compilation (one statement only); then the compiled program's
 * b-tree opens: every one must be in the main database and belong to an allowed table (or to `sqlite_sequence`,
 * which AUTOINCREMENT inserts maintain by themselves) and no virtual table may be opened. Case, comments,
 * whitespace and quoting cannot hide a table, since the tables are read from the compiled program, not the text.
 * @throws {UnsafeStatementError} with the reason.
 */
export function analyseStatement(
  db: Database.Database,
  sql: string,
  allowedTables: ReadonlySet<string>,
): StatementInfo {
  let tokens: SqlToken[];
  try {
    tokens = tokenizeSql(sql);
  } catch (e) {
    if (e instanceof SqlLexError) throw new UnsafeStatementError(e.message);
    throw e;
  }
  const firstSemicolon = tokens.findIndex((t) => t.kind === 'semicolon');
  if (firstSemicolon !== -1 && tokens.slice(firstSemicolon).some((t) => t.kind !== 'semicolon')) {
    throw new UnsafeStatementError('more than one statement (text after a ";")');
  }
  if (tokens.every((t) => t.kind === 'semicolon')) throw new UnsafeStatementError('empty statement');
  const params: string[] = [];
  for (const t of tokens) {
    const lower = t.text.toLowerCase();
    if ((t.kind === 'word' || t.kind === 'quoted') && FORBIDDEN_WORDS.has(lower) && t.kind === 'word') {
      throw new UnsafeStatementError(`${t.text.toUpperCase()} is not allowed in a tool template`);
    }
    if ((t.kind === 'word' || t.kind === 'quoted') && /^(sqlite_|pragma_)/.test(lower)) {
      throw new UnsafeStatementError(`'${t.text}' names SQLite's internals`);
    }
    if (t.kind === 'word' && lower === 'temp') throw new UnsafeStatementError('TEMP objects are not allowed');
    if (t.kind === 'param') {
      if (t.sigil !== ':') {
        throw new UnsafeStatementError(`parameter '${t.sigil}${t.text}': use :named parameters only`);
      }
      if (!params.includes(t.text)) params.push(t.text);
    }
  }
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    throw new UnsafeStatementError(`SQLite refuses it: ${(e as Error).message}`);
  }
  const bindings = Object.fromEntries(params.map((p) => [p, null]));
  let program: { opcode: string; p2: number | bigint; p3: number | bigint; p4: unknown }[];
  try {
    program = db.prepare(`EXPLAIN ${sql}`).all(bindings) as typeof program;
  } catch (e) {
    throw new UnsafeStatementError(`cannot inspect it: ${(e as Error).message}`);
  }
  const pages = rootPages(db);
  const tables = new Set<string>();
  for (const op of program) {
    if (op.opcode === 'VOpen' || op.opcode === 'VUpdate')
      throw new UnsafeStatementError('it opens a virtual table');
    if (!OPEN_OPCODES.has(op.opcode)) continue;
    if (Number(op.p3) !== 0) throw new UnsafeStatementError('it opens a table outside the main database');
    const table = pages.get(Number(op.p2));
    if (table === undefined) throw new UnsafeStatementError(`it opens SQLite's schema (page ${op.p2})`);
    if (table === 'sqlite_sequence') continue;
    if (!allowedTables.has(table))
      throw new UnsafeStatementError(`it touches table '${table}', outside the spec`);
    tables.add(table);
  }
  return { params, readonly: stmt.readonly, returnsRows: stmt.reader, tables: [...tables], tokens };
}
