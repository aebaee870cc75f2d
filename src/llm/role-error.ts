/** A role failure that should end the episode with a recorded reason (not a crash). */
export class RoleError extends Error {
  /** The failing role; `tools` is the model playing the tool outputs (`--tool-outputs model`). */
  readonly role: 'agent' | 'user' | 'tools';
  readonly kind: 'infrastructure' | 'invalid_output';
  constructor(
    role: 'agent' | 'user' | 'tools',
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
