/**
 * The field-by-field diff of one entity in three states (after the episode, after the gold actions, before),
 * as the state-diff panel shows it: one row per path whose values are not the same in all three, in natural
 * path order (`items[2]` before `items[10]`, an object's fields by name).
 */

/** One path of the entity and its value in each state: compact JSON, or `undefined` where the path is absent. */
export interface FieldRow {
  readonly path: string;
  readonly final: string | undefined;
  readonly gold: string | undefined;
  readonly base: string | undefined;
}

type Segment = string | number;
type Kind = 'absent' | 'leaf' | 'array' | 'object';

const kindOf = (v: unknown): Kind =>
  v === undefined
    ? 'absent'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object' && v !== null
        ? 'object'
        : 'leaf';

const child = (v: unknown, key: Segment): unknown =>
  Array.isArray(v) && typeof key === 'number'
    ? v[key]
    : kindOf(v) === 'object' && typeof key === 'string' && Object.hasOwn(v as object, key)
      ? (v as Record<string, unknown>)[key]
      : undefined;

/** How a value is shown in a row: JSON for a leaf or an empty list or object, else a count of its entries. */
function shown(v: unknown): string | undefined {
  const kind = kindOf(v);
  if (kind === 'absent') return undefined;
  if (kind === 'leaf') return JSON.stringify(v);
  const n = kind === 'array' ? (v as unknown[]).length : Object.keys(v as object).length;
  if (n === 0) return kind === 'array' ? '[]' : '{}';
  return kind === 'array'
    ? `[${n} ${n === 1 ? 'entry' : 'entries'}]`
    : `{${n} ${n === 1 ? 'field' : 'fields'}}`;
}

const pathText = (segments: readonly Segment[]): string =>
  segments.reduce<string>(
    (out, s) => (typeof s === 'number' ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`),
    '',
  );

/** Natural order of paths: segment by segment, list indices as numbers, a path before the paths under it. */
export function comparePaths(a: readonly Segment[], b: readonly Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as Segment;
    const y = b[i] as Segment;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Rows for the paths where the three values are not all equal. Where all present values are lists (or all
 * objects), their entries are compared one by one (list entries by position) and the container gets no row of
 * its own; where they are of different kinds (a list after the episode, `null` before), the path gets a row
 * (`[2 entries]` | `[2 entries]` | `null`) and the entries of the lists or objects get theirs below it.
 * `undefined` for a value: the entity is absent in that state.
 */
export function fieldDiff(final: unknown, gold: unknown, base: unknown): FieldRow[] {
  const rows: { segments: Segment[]; row: FieldRow }[] = [];
  const walk = (values: readonly unknown[], segments: Segment[]) => {
    const texts = values.map((v) => (v === undefined ? undefined : JSON.stringify(v)));
    if (texts[0] === texts[1] && texts[1] === texts[2]) return;
    const present = values.map(kindOf).filter((k) => k !== 'absent');
    const uniform = present.length > 0 && present.every((k) => k === present[0] && k !== 'leaf');
    if (!uniform) {
      const [f, g, b] = values.map(shown);
      rows.push({ segments, row: { path: pathText(segments), final: f, gold: g, base: b } });
    }
    const keys = new Set<Segment>();
    for (const v of values) {
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) keys.add(i);
      else if (kindOf(v) === 'object') for (const k of Object.keys(v as object)) keys.add(k);
    }
    for (const k of keys)
      walk(
        values.map((v) => child(v, k)),
        [...segments, k],
      );
  };
  walk([final, gold, base], []);
  return rows.sort((x, y) => comparePaths(x.segments, y.segments)).map((r) => r.row);
}
