import type { Rng } from '../../core/rng.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { ConstraintKind } from '../../tasks/constraint.js';
import type { DomainSynthesis, TaskDraft } from '../../tasks/synthesis.js';

/** What the tiny library's scripted roles read from `cove.fuzz`. */
export interface LibraryFuzz {
  readonly hidden_ids: readonly string[];
  readonly email: string;
  /** The loans to return, in the order the user asks: by title (fuzzified) or by loan id (fuzz level 0). */
  readonly loans: readonly { readonly title: string; readonly loan_id?: string }[];
}

/** The one constraint kind: return an open loan. */
export const RETURN_LOAN: ConstraintKind = {
  name: 'return_loan',
  category: 'write',
  writeTools: ['return_loan'],
  goldActions: (c) => [{ name: 'return_loan', arguments: { loan_id: c.args.loan_id } }],
  predicate(c, { final }) {
    const row = final.sql.get('SELECT status FROM loans WHERE loan_id = ?', String(c.args.loan_id));
    return {
      satisfied: row?.status === 'returned',
      evidence: `loan ${c.args.loan_id} status=${row?.status ?? 'missing'}`,
    };
  },
};

function draw(
  rng: Rng,
  base: EnvironmentBase,
  request: { k: number; fuzzLevel: number },
): TaskDraft | { rejected: string } {
  const members = base.sql.all('SELECT member_id, email FROM members ORDER BY member_id');
  const member = rng.pick(members);
  const loans = base.sql.all(
    "SELECT l.loan_id, b.title FROM loans l JOIN books b USING (book_id) WHERE l.member_id = ? AND l.status = 'open' ORDER BY l.loan_id",
    member.member_id as string,
  );
  if (loans.length < request.k)
    return { rejected: `member has ${loans.length} open loans, fewer than ${request.k}` };
  const chosen = rng.sample(loans, request.k);
  const byTitle = request.fuzzLevel > 0;
  const fuzz: LibraryFuzz = {
    hidden_ids: [String(member.member_id), ...(byTitle ? chosen.map((l) => String(l.loan_id)) : [])],
    email: String(member.email),
    loans: chosen.map((l) => ({
      title: String(l.title),
      ...(byTitle ? {} : { loan_id: String(l.loan_id) }),
    })),
  };
  const names = chosen.map((l) => (byTitle ? `"${l.title}"` : `loan ${l.loan_id}`)).join(' and ');
  return {
    userId: String(member.member_id),
    constraints: chosen.map((l, i) => ({
      id: `c${i + 1}`,
      kind: 'return_loan',
      args: { loan_id: String(l.loan_id) },
    })),
    fuzz: fuzz as unknown as Readonly<Record<string, unknown>>,
    instructions: {
      domain: 'library',
      reason_for_call: `You are returning ${names} today and want the library to record it.`,
      known_info: `Your email is ${member.email}.`,
      unknown_info: null,
      task_instructions: 'Confirm when the agent asks. Once everything is recorded, end the conversation.',
    },
    strategies: chosen.map(() => [byTitle ? 'loan:title' : 'loan:id']),
    userStrategy: 'user:email',
    hiddenIds: fuzz.hidden_ids,
    communicate: [],
  };
}

/** The tiny library's synthesis: one kind, one draw, and a recheck that a title names one open loan of the member. */
export const LIBRARY_SYNTHESIS: DomainSynthesis = {
  kinds: [RETURN_LOAN],
  draw,
  recheck(base, constraints, fuzz) {
    const f = fuzz as unknown as LibraryFuzz;
    const problems: string[] = [];
    constraints.forEach((c, i) => {
      const loan = f.loans[i];
      if (loan === undefined || loan.loan_id !== undefined) return;
      const rows = base.sql.all(
        'SELECT l.loan_id FROM loans l JOIN books b USING (book_id) JOIN members m USING (member_id) WHERE m.email = ? AND b.title = ?',
        f.email,
        loan.title,
      );
      if (rows.length !== 1 || rows[0]?.loan_id !== c.args.loan_id)
        problems.push(`${c.id}: "${loan.title}" is not unique`);
    });
    return problems;
  },
};
