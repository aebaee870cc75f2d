/**
 * How a model-played user speaks (docs/design.md §5): `stop-token` answers in plain text and ends the conversation with
 * ###STOP### (τ²'s user simulator); `json` answers every turn with `{"user_message", "is_task_complete"}`, the
 * user-oriented simulator of "User-Oriented Multi-Turn Dialogue Generation with Tool Use at scale" (Cho, Jeong, Park; arXiv 2601.08225).
 */
export const USER_STYLES = ['stop-token', 'json'] as const;
export type UserStyle = (typeof USER_STYLES)[number];

/** True for a known style name. */
export function isUserStyle(value: string): value is UserStyle {
  return (USER_STYLES as readonly string[]).includes(value);
}
