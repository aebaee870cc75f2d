import { useEffect, useState } from 'preact/hooks';
import type { EpisodeRow, EpisodesResponse, OverviewResponse, SourceInfo } from './api.js';
import { indexedShare, int, num } from './format.js';
import { go, href, type Route } from './route.js';
import { useFetch } from './use-fetch.js';

const PAGE = 50;
/** Parameters that are not filters. */
const NOT_FILTERS = new Set(['src', 'offset', 'sort', 'desc', 'q', 'malformed']);
const LABELS: Record<string, string> = {
  kind: 'kind',
  failure: 'failure',
  termination: 'termination',
  domain: 'domain',
  difficulty: 'difficulty',
  k: 'k',
  task: 'task',
  sft: 'SFT kept',
  stateMatch: 'state match',
  passed: 'passed',
  scoreMin: 'score ≥',
  scoreMax: 'score ≤',
  turnsMin: 'turns ≥',
  turnsMax: 'turns ≤',
  toolsMin: 'tool calls ≥',
  toolsMax: 'tool calls ≤',
  tokensMin: 'tokens ≥',
  tokensMax: 'tokens ≤',
};

function paramsOf(route: Route): Record<string, string> {
  return Object.fromEntries(route.params.entries());
}

function Select(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (v: string) => void;
}) {
  return (
    <label class="field">
      {props.label}
      <select
        name={props.name}
        value={props.value ?? ''}
        onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="">any</option>
        {props.options.map((o) => (
          <option value={o} key={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

function Row(props: { row: EpisodeRow; src: number }) {
  const r = props.row;
  return (
    <tr class={r.passed ? 'pass' : 'fail'} data-line={r.line}>
      <td>
        <a href={href('episode', { src: props.src, line: r.line })}>{r.line + 1}</a>
      </td>
      <td>{r.taskId}</td>
      <td class="num">{num(r.score)}</td>
      <td>{r.stateMatch === null ? '–' : r.stateMatch ? '✓' : '✗'}</td>
      <td class="num">{num(r.reward)}</td>
      <td>{r.sft === null ? '–' : r.sft ? 'kept' : 'no'}</td>
      <td>{r.termination}</td>
      <td>{r.failure ?? ''}</td>
      <td class="kinds">{r.kinds.join(', ')}</td>
      <td class="num">{r.userTurns}</td>
      <td class="num">{r.toolCalls}</td>
      <td class="num">{int(r.promptTokens + r.completionTokens)}</td>
      <td class="preview">{r.preview ?? ''}</td>
    </tr>
  );
}

/** The episode list: filters, text search, sorting, paging. The route holds the state. */
export function ListPage(props: { source: SourceInfo; route: Route }) {
  const params = paramsOf(props.route);
  const src = props.source.index;
  const set = (changes: Record<string, string | undefined>) => {
    const next: Record<string, string | undefined> = { ...params, ...changes, src: String(src) };
    if (!('offset' in changes)) delete next.offset;
    go(href('list', next));
  };
  const [text, setText] = useState(params.q ?? '');
  // the box shows the route's search: going back to `#/list` (or to another search) replaces what was typed
  useEffect(() => setText(params.q ?? ''), [params.q]);
  const api = new URLSearchParams({ ...params, src: String(src), limit: String(PAGE) });
  const loaded = useFetch<EpisodesResponse>('/api/episodes', api);
  const overview = useFetch<OverviewResponse>('/api/overview', new URLSearchParams({ src: String(src) }));
  const labels = (key: 'byKind' | 'failure' | 'termination') =>
    overview.state === 'ok' ? overview.data[key].map((b) => b.label) : [];
  const offset = Number(params.offset ?? 0);
  const sort = (key: string) => (
    <th>
      <button
        type="button"
        class={`sort${params.sort === key ? ' active' : ''}`}
        onClick={() => set({ sort: key, desc: params.sort === key && params.desc !== '1' ? '1' : undefined })}
      >
        {key}
        {params.sort === key ? (params.desc === '1' ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const chips = Object.entries(params).filter(([k]) => !NOT_FILTERS.has(k));
  // the malformed lines are listed alone: filters and search apply to episodes, so they are not offered there
  const malformedPage = params.malformed === 'yes';
  return (
    <section class="list">
      {!malformedPage && (
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            set({ q: text.trim() === '' ? undefined : text.trim() });
          }}
        >
          <Select
            name="kind"
            label="kind"
            value={params.kind}
            options={labels('byKind')}
            onChange={(v) => set({ kind: v })}
          />
          <Select
            name="failure"
            label="failure"
            value={params.failure}
            options={labels('failure')}
            onChange={(v) => set({ failure: v })}
          />
          <Select
            name="termination"
            label="termination"
            value={params.termination}
            options={labels('termination')}
            onChange={(v) => set({ termination: v })}
          />
          {props.source.format === 'cove' && (
            <Select
              name="sft"
              label="SFT kept"
              value={params.sft}
              options={['yes', 'no']}
              onChange={(v) => set({ sft: v })}
            />
          )}
          <Select
            name="stateMatch"
            label="state match"
            value={params.stateMatch}
            options={['yes', 'no']}
            onChange={(v) => set({ stateMatch: v })}
          />
          <Select
            name="passed"
            label="passed"
            value={params.passed}
            options={['yes', 'no']}
            onChange={(v) => set({ passed: v })}
          />
          <label class="field">
            score ≥
            <input
              name="scoreMin"
              type="number"
              step="any"
              min="0"
              max="1"
              value={params.scoreMin ?? ''}
              onChange={(e) => set({ scoreMin: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label class="field">
            score ≤
            <input
              name="scoreMax"
              type="number"
              step="any"
              min="0"
              max="1"
              value={params.scoreMax ?? ''}
              onChange={(e) => set({ scoreMax: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label class="field grow">
            text in messages
            <input
              name="q"
              type="search"
              value={text}
              placeholder="search the conversations"
              onInput={(e) => setText((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">search</button>
        </form>
      )}
      {!malformedPage && chips.length > 0 && (
        <div class="chips">
          {chips.map(([k, v]) => (
            <button
              type="button"
              class="chip"
              key={k}
              onClick={() => set({ [k]: undefined })}
              title="remove this filter"
            >
              {LABELS[k] ?? k}: {v} ×
            </button>
          ))}
          <a href={href('list', { src })}>clear all</a>
        </div>
      )}
      {loaded.state === 'loading' && <p class="muted">loading…</p>}
      {loaded.state === 'error' && <p class="error">{loaded.error}</p>}
      {loaded.state === 'ok' && params.malformed === 'yes' && (
        <>
          <p class="summary">
            {loaded.data.total} malformed lines
            {!loaded.data.coverage.complete && ` so far (partial: ${indexedShare(loaded.data.coverage)})`}
            {' · '}
            <a href={href('list', { src })} id="clear-malformed">
              clear: all episodes
            </a>
          </p>
          <table class="episodes">
            <thead>
              <tr>
                <th>line</th>
                <th>why it cannot be read</th>
              </tr>
            </thead>
            <tbody>
              {(loaded.data.malformed ?? []).map((m) => (
                <tr class="malformed" key={m.line}>
                  <td>
                    <a href={href('episode', { src, line: m.line })}>{m.line + 1}</a>
                  </td>
                  <td>{m.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {loaded.state === 'ok' && params.malformed !== 'yes' && (
        <>
          <p class="summary">
            <span id="match-count">{int(loaded.data.total)}</span> episodes
            {!loaded.data.coverage.complete && (
              <span class="partial" id="list-coverage" data-complete="false">
                {' '}
                so far (partial: {indexedShare(loaded.data.coverage)}; refreshing)
              </span>
            )}
            {loaded.data.total > 0 && ` · ${offset + 1}–${Math.min(offset + PAGE, loaded.data.total)}`}
            {(loaded.data.malformedCount ?? 0) > 0 && (
              <a class="warn-link" href={href('list', { src, malformed: 'yes' })}>
                {' '}
                · {loaded.data.malformedCount} malformed lines
              </a>
            )}
          </p>
          <table class="episodes">
            <thead>
              <tr>
                {sort('line')}
                {sort('task')}
                {sort('score')}
                <th>state</th>
                {sort('reward')}
                <th>SFT</th>
                <th>termination</th>
                <th>failure</th>
                <th>kinds</th>
                {sort('turns')}
                {sort('tools')}
                {sort('tokens')}
                <th>first user message</th>
              </tr>
            </thead>
            <tbody>
              {(loaded.data.rows ?? []).map((r) => (
                <Row row={r} src={src} key={r.line} />
              ))}
            </tbody>
          </table>
          <div class="pager">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => set({ offset: String(Math.max(0, offset - PAGE)) })}
            >
              ← previous
            </button>
            <button
              type="button"
              disabled={loaded.data.coverage.complete && offset + PAGE >= loaded.data.total}
              onClick={() => set({ offset: String(offset + PAGE) })}
            >
              next →
            </button>
          </div>
        </>
      )}
    </section>
  );
}
