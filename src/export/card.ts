import type { ExportConversation } from './conversation.js';
import type { DropReason } from './select.js';

/** Mean, median and maximum of a count per conversation. */
export interface Dist {
  readonly mean: number;
  readonly p50: number;
  readonly max: number;
}

/** Counts of what went into one output file. */
export class FileStats {
  rows = 0;
  readonly kinds = new Map<string, number>();
  readonly k = new Map<number, number>();
  readonly domains = new Map<string, number>();
  readonly dataSources = new Map<string, number>();
  readonly skipped = new Map<string, number>();
  readonly tasks = new Set<string>();
  readonly #userTurns: number[] = [];
  readonly #agentTurns: number[] = [];
  readonly #toolCalls: number[] = [];

  /** Counts a conversation that was written. */
  add(conv: ExportConversation): void {
    this.rows++;
    this.tasks.add(`${conv.domain}/${conv.taskId}`);
    bump(this.domains, conv.domain);
    bump(this.dataSources, conv.dataSource);
    for (const kind of new Set(conv.constraintKinds)) bump(this.kinds, kind);
    if (conv.constraintKinds.length > 0) bump(this.k, conv.constraintKinds.length);
    this.#userTurns.push(conv.messages.filter((m) => m.role === 'user').length);
    this.#agentTurns.push(conv.messages.filter((m) => m.role === 'assistant').length);
    this.#toolCalls.push(
      conv.messages.reduce((a, m) => a + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0),
    );
  }

  /** Counts a conversation the format cannot hold. */
  skip(reason: string): void {
    bump(this.skipped, reason);
  }

  get userTurns(): Dist {
    return dist(this.#userTurns);
  }
  get agentTurns(): Dist {
    return dist(this.#agentTurns);
  }
  get toolCalls(): Dist {
    return dist(this.#toolCalls);
  }
}

function bump<K>(m: Map<K, number>, key: K): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

function dist(values: number[]): Dist {
  if (values.length === 0) return { mean: 0, p50: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)),
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
  };
}

/** Everything the dataset card states. */
export interface CardFacts {
  readonly format: string;
  readonly formatNote: string;
  readonly input: string;
  readonly inputKind: string;
  readonly files: readonly { name: string; split: string; stats: FileStats }[];
  readonly total: number;
  readonly dropped: Partial<Record<DropReason, number>>;
  readonly damagedLines: number;
  readonly settings: Record<string, unknown>;
  readonly coveVersion: string;
  readonly sourceDb: string;
  readonly benchmarkData: boolean;
}

const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const sorted = <K>(m: Map<K, number>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/**
 * The dataset card (`README.md` of the output folder): a Hugging Face style YAML header, then files and counts,
 * constraint kinds, k, turns and tool calls per conversation, what selection left out, the source DB and whether it
 * is τ² benchmark data, the settings and the cove version.
 */
export function renderCard(f: CardFacts): string {
  const all = new FileStats();
  const merge = <K>(into: Map<K, number>, from: Map<K, number>) => {
    for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
  };
  for (const file of f.files) {
    all.rows += file.stats.rows;
    merge(all.kinds, file.stats.kinds);
    merge(all.k, file.stats.k);
    merge(all.skipped, file.stats.skipped);
    for (const t of file.stats.tasks) all.tasks.add(t);
  }
  const lines: string[] = [
    '---',
    `pretty_name: cove ${f.format} export of ${f.input}`,
    'tags: [tool-calling, multi-turn, agents, synthetic, cove]',
    `configs:\n  - config_name: default\n    data_files:\n${f.files.map((x) => `      - split: ${x.split}\n        path: ${x.name}`).join('\n')}`,
    '---',
    '',
    `# ${f.input} (${f.format})`,
    '',
    `Exported by \`cove export\` (cove ${f.coveVersion}) from ${f.inputKind} \`${f.input}\`. ${f.formatNote}`,
    '',
    '## Files',
    '',
    table(
      [
        'file',
        'split',
        'conversations',
        'tasks',
        'user turns (mean / p50 / max)',
        'agent turns (mean / p50 / max)',
        'tool calls (mean / p50 / max)',
      ],
      f.files.map((x) => {
        const s = x.stats;
        const d = (v: Dist) => `${v.mean} / ${v.p50} / ${v.max}`;
        return [x.name, x.split, s.rows, s.tasks.size, d(s.userTurns), d(s.agentTurns), d(s.toolCalls)];
      }),
    ),
    '',
    `Source: ${f.total} trajectories read, ${all.rows} written${f.damagedLines > 0 ? `, ${f.damagedLines} damaged line(s) skipped` : ''}.`,
    `Source DB: ${f.sourceDb}. Benchmark data: ${f.benchmarkData ? '**yes** (built on τ²-bench data; do not train on it and evaluate on τ²-bench)' : 'no'}.`,
    '',
  ];
  const dropped = Object.entries(f.dropped);
  if (dropped.length > 0) {
    lines.push(
      '## Left out by selection',
      '',
      table(
        ['reason', 'trajectories'],
        dropped.sort().map(([k, v]) => [k, v ?? 0]),
      ),
      '',
    );
  }
  if (all.skipped.size > 0) {
    lines.push(
      `## Left out because ${f.format} cannot represent them`,
      '',
      table(['reason', 'conversations'], sorted(all.skipped)),
      '',
    );
  }
  if (all.kinds.size > 0) {
    lines.push('## Constraint kinds', '', table(['kind', 'conversations'], sorted(all.kinds)), '');
    lines.push('## Constraints per task (k)', '', table(['k', 'conversations'], sorted(all.k)), '');
  }
  lines.push('## Settings', '', '```json', JSON.stringify(f.settings, null, 2), '```', '');
  return lines.join('\n');
}
