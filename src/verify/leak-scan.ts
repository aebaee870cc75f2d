import type { ChatMessage } from '../sim/messages.js';

/** A fuzzified id found in a user message. */
export interface Leak {
  readonly messageIndex: number;
  readonly id: string;
}

/**
 * Finds every id the task fuzzified that occurs in a user message (docs/design.md §7.3: the user must never say an
 * id that was replaced by a description).
 */
export function scanLeaks(messages: readonly ChatMessage[], hiddenIds: readonly string[]): Leak[] {
  const leaks: Leak[] = [];
  messages.forEach((m, messageIndex) => {
    if (m.role !== 'user') return;
    for (const id of hiddenIds) if (m.content.includes(id)) leaks.push({ messageIndex, id });
  });
  return leaks;
}
