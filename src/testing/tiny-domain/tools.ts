import { ToolError } from '../../core/errors.js';
import type { PyValue } from '../../core/py-value.js';
import type { SqlConnection } from '../../env/sql.js';
import type { ToolSpec } from '../../env/tool.js';

function text(value: PyValue | undefined, name: string): string {
  if (typeof value !== 'string') throw new ToolError(`${name} must be a string`);
  return value;
}

function loanDump(sql: SqlConnection, loanId: string): Map<string, PyValue> {
  const row = sql.get(
    'SELECT l.loan_id, l.member_id, b.title, l.due, l.status FROM loans l JOIN books b USING (book_id) WHERE l.loan_id = ?',
    loanId,
  );
  if (row === undefined) throw new ToolError('loan not found');
  return new Map(Object.entries(row) as [string, PyValue][]);
}

function openLoan(sql: SqlConnection, loanId: string): void {
  const row = sql.get('SELECT status FROM loans WHERE loan_id = ?', loanId);
  if (row === undefined) throw new ToolError('loan not found');
  if (row.status !== 'open') throw new ToolError('loan is not open');
}

/** The tiny library's four tools: two reads, two writes. */
export const LIBRARY_TOOLS: readonly ToolSpec[] = [
  {
    name: 'find_member_by_email',
    kind: 'read',
    params: [{ name: 'email', schema: { type: 'string' }, description: "The member's email address." }],
    description: "Look up a member's id from their email address.",
    run({ sql }, { email }) {
      const row = sql.get('SELECT member_id FROM members WHERE email = ?', text(email, 'email'));
      if (row === undefined) throw new ToolError('member not found');
      return String(row.member_id);
    },
  },
  {
    name: 'list_loans',
    kind: 'read',
    params: [{ name: 'member_id', schema: { type: 'string' }, description: "The member's id." }],
    description: "List a member's loans with the book title, due date and status.",
    run({ sql }, { member_id }) {
      const id = text(member_id, 'member_id');
      if (sql.get('SELECT 1 FROM members WHERE member_id = ?', id) === undefined) {
        throw new ToolError('member not found');
      }
      return sql
        .all('SELECT loan_id FROM loans WHERE member_id = ? ORDER BY loan_id', id)
        .map((r) => loanDump(sql, String(r.loan_id)));
    },
  },
  {
    name: 'return_loan',
    kind: 'write',
    params: [{ name: 'loan_id', schema: { type: 'string' }, description: 'The loan to close.' }],
    description: 'Record that the book of an open loan came back.',
    run({ sql }, { loan_id }) {
      const id = text(loan_id, 'loan_id');
      openLoan(sql, id);
      sql.run("UPDATE loans SET status = 'returned' WHERE loan_id = ?", id);
      return loanDump(sql, id);
    },
  },
  {
    name: 'renew_loan',
    kind: 'write',
    params: [{ name: 'loan_id', schema: { type: 'string' }, description: 'The loan to extend.' }],
    description: 'Move the due date of an open loan 14 days later.',
    run({ sql }, { loan_id }) {
      const id = text(loan_id, 'loan_id');
      openLoan(sql, id);
      sql.run("UPDATE loans SET due = date(due, '+14 days') WHERE loan_id = ?", id);
      return loanDump(sql, id);
    },
  },
];
