import type { CompareResponse, CompareRow, EpisodeDetail, SourceInfo } from './api.js';
import { Chat } from './chat.js';
import { EpisodeHeader, Malformed, marksOf } from './episode.js';
import { int, num } from './format.js';
import { href, type Route } from './route.js';
import { useFetch } from './use-fetch.js';

const STATUS: Record<string, string> = {
  both: 'both passed',
  only_a: 'only A passed',
  only_b: 'only B passed',
  neither: 'neither passed',
  different: 'different tasks under the same id',
  missing: 'in one run only',
};

function Side(props: { side: CompareRow['a'] }) {
  const s = props.side;
  if (s === null) return <td class="muted">–</td>;
  return (
    <td class={s.passed > 0 ? 'pass' : 'fail'}>
      {s.passed > 0 ? '✓' : '✗'} {s.passed}/{s.total} · best {num(s.best)}
      {s.failures.length > 0 && <span class="muted"> · {s.failures.join(', ')}</span>}
    </td>
  );
}

/** Two runs over the same tasks: per task which passed. */
export function ComparePage(props: { sources: readonly SourceInfo[]; route: Route }) {
  const status = props.route.params.get('status') ?? '';
  const offset = Number(props.route.params.get('offset') ?? 0);
  const loaded = useFetch<CompareResponse>(
    '/api/compare',
    new URLSearchParams({ status, offset: String(offset), limit: '100' }),
  );
  const [a, b] = props.sources;
  if (loaded.state === 'loading') return <p class="muted">pairing the runs…</p>;
  if (loaded.state === 'error') return <p class="error">{loaded.error}</p>;
  const d = loaded.data;
  return (
    <section class="compare">
      <p>
        A = <strong>{a?.label}</strong>, B = <strong>{b?.label}</strong>
        <span class="muted">
          {' '}
          · tasks compared by {d.basis === 'tasks' ? 'their definitions' : 'what the records say (no tasks)'}
        </span>
      </p>
      {d.note !== null && (
        <p class="warning" data-testid="compare-note">
          {d.note}
        </p>
      )}
      <div class="chips">
        <a class={`chip${status === '' ? ' active' : ''}`} href={href('compare')}>
          all tasks
        </a>
        {Object.entries(d.counts).map(([k, n]) => (
          <a
            class={`chip${status === k ? ' active' : ''}`}
            href={href('compare', { status: k })}
            key={k}
            data-status={k}
          >
            {STATUS[k]}: {int(n)}
          </a>
        ))}
      </div>
      <table class="episodes">
        <thead>
          <tr>
            <th>task</th>
            <th>A</th>
            <th>B</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {d.rows.map((r) => (
            <tr key={r.taskId} class={r.status === 'different' ? 'different' : undefined}>
              <td>
                {r.taskId}
                {r.status === 'different' && (
                  <span class="warning"> · different tasks under the same id</span>
                )}
              </td>
              <Side side={r.a} />
              <Side side={r.b} />
              <td>
                <a
                  href={href('pair', {
                    task: r.taskId,
                    a: r.a?.lines[0],
                    b: r.b?.lines[0],
                    different: r.status === 'different' ? 1 : undefined,
                  })}
                >
                  side by side
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pager">
        {offset > 0 && (
          <a href={href('compare', { status, offset: Math.max(0, offset - 100) })}>← previous</a>
        )}
        {offset + 100 < d.total && <a href={href('compare', { status, offset: offset + 100 })}>next →</a>}
      </div>
    </section>
  );
}

function PairSide(props: { src: number; line: string | null; label: string }) {
  const loaded = useFetch<EpisodeDetail>(
    '/api/episode',
    new URLSearchParams({ src: String(props.src), line: props.line ?? '-1' }),
  );
  return (
    <div class="pair-side">
      <h2>{props.label}</h2>
      {props.line === null && <p class="muted">this run has no episode of the task</p>}
      {props.line !== null && loaded.state === 'loading' && <p class="muted">loading…</p>}
      {props.line !== null && loaded.state === 'error' && <p class="error">{loaded.error}</p>}
      {props.line !== null && loaded.state === 'ok' && (
        <>
          <Malformed detail={loaded.data} />
          <EpisodeHeader detail={loaded.data} />
          <a href={href('episode', { src: props.src, line: props.line })}>open with task and verification</a>
          <Chat
            messages={loaded.data.messages ?? []}
            marks={marksOf(loaded.data)}
            prefix={`s${props.src}-`}
          />
        </>
      )}
    </div>
  );
}

/** The two conversations of one task next to each other. */
export function PairPage(props: { sources: readonly SourceInfo[]; route: Route }) {
  const p = props.route.params;
  return (
    <section class="pair">
      <p class="nav">
        <a href={href('compare')}>← all tasks</a> task {p.get('task')}
      </p>
      {p.get('different') === '1' && (
        <p class="warning">
          different tasks under the same id: these two conversations are not over the same task
        </p>
      )}
      <div class="pair-cols">
        <PairSide src={0} line={p.get('a')} label={`A: ${props.sources[0]?.label ?? ''}`} />
        <PairSide src={1} line={p.get('b')} label={`B: ${props.sources[1]?.label ?? ''}`} />
      </div>
    </section>
  );
}
