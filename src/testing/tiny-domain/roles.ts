import { RoleError } from '../../llm/role-error.js';
import type { ChatMessage } from '../../sim/messages.js';
import type { Agent, AgentTurn, UserSimulator, UserTurn, VisibleMessage } from '../../sim/roles.js';
import type { LibraryFuzz } from './synthesis.js';

const CONFIRM = 'Shall I record';
const DONE = 'All recorded';

function lastToolResult(messages: readonly ChatMessage[], tool: string): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'tool' && m.name === tool && !m.content.startsWith('Error')) return m.content;
  }
  return undefined;
}

/**
 * The tiny library's oracle agent: looks the member up by email, lists their loans, and for each loan the user
 * wants returned (by title, or by id at fuzz level 0) asks for a confirmation, then returns it. Every loan id it
 * writes comes from the `list_loans` result.
 */
export class LibraryOracleAgent implements Agent {
  readonly #fuzz: LibraryFuzz;
  #calls = 0;
  constructor(fuzz: LibraryFuzz) {
    this.#fuzz = fuzz;
  }

  async respond(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const call = (name: string, args: Record<string, string>): AgentTurn => ({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${this.#calls++}`,
            type: 'function',
            function: { name, arguments: JSON.stringify(args) },
          },
        ],
      },
    });
    const say = (content: string): AgentTurn => ({ message: { role: 'assistant', content } });
    const member = lastToolResult(messages, 'find_member_by_email');
    if (member === undefined) return call('find_member_by_email', { email: this.#fuzz.email });
    const listed = lastToolResult(messages, 'list_loans');
    if (listed === undefined) return call('list_loans', { member_id: member });
    const loans = JSON.parse(listed) as { loan_id: string; title: string }[];
    const returned = new Set(
      messages.flatMap((m) =>
        m.role === 'tool' && m.name === 'return_loan' && !m.content.startsWith('Error')
          ? [(JSON.parse(m.content) as { loan_id: string }).loan_id]
          : [],
      ),
    );
    const last = messages[messages.length - 1];
    for (const want of this.#fuzz.loans) {
      const loan = loans.find((l) =>
        want.loan_id !== undefined ? l.loan_id === want.loan_id : l.title === want.title,
      );
      if (loan === undefined) throw new RoleError('agent', 'invalid_output', `no loan for "${want.title}"`);
      if (returned.has(loan.loan_id)) continue;
      const asked = messages.some(
        (m) => m.role === 'assistant' && m.content?.includes(`${CONFIRM} "${loan.title}"`),
      );
      if (asked && last?.role === 'user' && /\byes\b/i.test(last.content))
        return call('return_loan', { loan_id: loan.loan_id });
      return say(`${CONFIRM} "${loan.title}" as returned?`);
    }
    return say(`${DONE}: ${this.#fuzz.loans.map((l) => `"${l.title}"`).join(', ')} returned.`);
  }
}

/** The tiny library's scripted user: asks to return the loans, confirms, and stops once everything is recorded. */
export class LibraryScriptedUser implements UserSimulator {
  readonly #fuzz: LibraryFuzz;
  constructor(fuzz: LibraryFuzz) {
    this.#fuzz = fuzz;
  }

  async respond(visible: readonly VisibleMessage[]): Promise<UserTurn> {
    const last = visible[visible.length - 1]?.content ?? '';
    if (visible.length <= 1) {
      const what = this.#fuzz.loans.map((l) =>
        l.loan_id === undefined ? `"${l.title}"` : `loan ${l.loan_id}`,
      );
      return { content: `Hello, I am bringing back ${what.join(' and ')}. My email is ${this.#fuzz.email}.` };
    }
    if (last.startsWith(CONFIRM)) return { content: 'Yes, please.' };
    if (last.startsWith(DONE)) return { content: 'Thank you! ###STOP###' };
    return { content: 'Could you go ahead with that?' };
  }
}
