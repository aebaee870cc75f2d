/** A role failure that should end the episode with a recorded reason (not a crash). */
export class RoleError extends Error {
  readonly role: 'agent' | 'user';
  readonly kind: 'infrastructure' | 'invalid_output';
  constructor(
    role: 'agent' | 'user',
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
