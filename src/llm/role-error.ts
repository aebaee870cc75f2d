/** A role failure that should end the episode with a recorded reason (not a crash). */
export class RoleError extends Error {
  /** The failing role; `tool_outputs` is the model playing the tool outputs (`--tool-outputs model`). */
  readonly role: 'agent' | 'user' | 'tool_outputs';
  readonly kind: 'infrastructure' | 'invalid_output';
  constructor(
    role: 'agent' | 'user' | 'tool_outputs',
    kind: 'infrastructure' | 'invalid_output',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RoleError';
    this.role = role;
    this.kind = kind;
  }
}
