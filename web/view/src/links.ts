import type { ViewMessage } from './api.js';

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A constraint of a cove task: id, kind, arguments. */
export interface ConstraintInfo {
  readonly id: string;
  readonly kind: string;
  readonly args: Obj;
}

export function constraintsOf(task: unknown): ConstraintInfo[] {
  return list(obj(obj(task).cove).constraints).map((c) => {
    const o = obj(c);
    return { id: String(o.id ?? ''), kind: String(o.kind ?? ''), args: obj(o.args) };
  });
}

/**
 * Whether a call (tool name and arguments) acts for a constraint: the tool is the constraint's kind and every
 * id-like argument (`*_id`) the constraint names has the same value in the call.
 */
export function serves(c: ConstraintInfo, name: string, args: Obj): boolean {
  if (name !== c.kind) return false;
  for (const [k, v] of Object.entries(c.args)) {
    if (!k.endsWith('_id') || typeof v !== 'string') continue;
    if (k in args && args[k] !== v) return false;
  }
  return true;
}

export function parseArgs(text: string): Obj {
  try {
    return obj(JSON.parse(text));
  } catch {
    return {};
  }
}

/** For each tool call id, the constraints it served. */
export function callConstraints(
  messages: readonly ViewMessage[],
  constraints: readonly ConstraintInfo[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of messages) {
    for (const call of m.tool_calls ?? []) {
      const args = parseArgs(call.arguments);
      const ids = constraints.filter((c) => serves(c, call.name, args)).map((c) => c.id);
      if (ids.length > 0) out.set(call.id, ids);
    }
  }
  return out;
}

/** Scrolls to an element of the page by id and flashes it. */
export function jump(id: string): void {
  const el = document.getElementById(id);
  if (el === null) return;
  if (el instanceof HTMLDetailsElement) el.open = true;
  el.scrollIntoView({ block: 'center' });
  el.classList.add('flash');
  setTimeout(() => el.classList.remove('flash'), 1200);
}
