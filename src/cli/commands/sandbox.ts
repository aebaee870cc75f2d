import type { Command } from 'commander';

/** `cove sandbox`: placeholder, implemented by the sandbox work. */
export function registerSandbox(_program: Command): void {}
