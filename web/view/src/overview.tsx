import type { OverviewResponse, SourceInfo } from './api.js';
import { BarChart } from './bar-chart.js';
import { indexedShare, int, num, pct, usd } from './format.js';
import { go, href } from './route.js';
import { useFetch } from './use-fetch.js';

function Card(props: { label: string; value: string; link?: string; warn?: boolean }) {
  const body = (
    <>
      <div class="card-value">{props.value}</div>
      <div class="card-label">{props.label}</div>
    </>
  );
  return props.link === undefined ? (
    <div class={`card${props.warn === true ? ' warn' : ''}`}>{body}</div>
  ) : (
    <a class={`card${props.warn === true ? ' warn' : ''}`} href={props.link}>
      {body}
    </a>
  );
}

/** The run overview: headline numbers and clickable charts. */
export function OverviewPage(props: { source: SourceInfo }) {
  const src = props.source.index;
  const loaded = useFetch<OverviewResponse>('/api/overview', new URLSearchParams({ src: String(src) }));
  if (loaded.state === 'loading') return <p class="muted">indexing {props.source.label}…</p>;
  if (loaded.state === 'error') return <p class="error">cannot load the overview: {loaded.error}</p>;
  const o = loaded.data;
  const tau2 = props.source.format === 'tau2';
  const open = (filter: Record<string, string>) => go(href('list', { src, ...filter }));
  return (
    <section class="overview">
      {!o.coverage.complete && (
        <p class="partial" id="coverage" data-complete="false">
          Indexing the run: {indexedShare(o.coverage)}. Every number and chart below covers the first{' '}
          {int(o.episodes)} episodes only (partial); the page refreshes until the index is complete.
        </p>
      )}
      <div class="cards">
        <Card label="episodes" value={int(o.episodes)} link={href('list', { src })} />
        <Card label="tasks" value={int(o.tasks)} />
        <Card
          label={tau2 ? 'pass^1 (reward 1)' : 'yield (kept for SFT)'}
          value={pct(o.yield)}
          link={href('list', { src, passed: 'yes' })}
        />
        <Card label="task yield" value={pct(o.taskYield)} />
        {o.meanScore !== null && <Card label="mean score" value={num(o.meanScore)} />}
        {o.meanReward !== null && (
          <Card label={tau2 ? 'mean reward' : 'mean reward (evaluation)'} value={num(o.meanReward)} />
        )}
        <Card
          label="state match"
          value={pct(o.episodes === 0 ? 0 : o.stateMatch / o.episodes)}
          link={href('list', { src, stateMatch: 'no' })}
        />
        <Card
          label="tokens (prompt + completion)"
          value={int(o.usage.promptTokens + o.usage.completionTokens)}
        />
        <Card label="cost" value={usd(o.usage.costUsd)} />
        <Card label="HTTP retries" value={int(o.usage.retries)} />
        {o.malformed > 0 && (
          <Card
            label="malformed lines"
            value={int(o.malformed)}
            link={href('list', { src, malformed: 'yes' })}
            warn
          />
        )}
        {o.superseded > 0 && <Card label="superseded lines (re-run episodes)" value={int(o.superseded)} />}
      </div>
      <div class="charts">
        {!tau2 && (
          <BarChart id="kind" title="Passed by constraint kind" bars={o.byKind} horizontal onBar={open} />
        )}
        <BarChart
          id="k"
          title={tau2 ? 'Passed by number of gold actions' : 'Passed by k (constraints)'}
          bars={o.byK}
          onBar={open}
        />
        {o.byDifficulty.length > 0 && (
          <BarChart id="difficulty" title="Passed by difficulty" bars={o.byDifficulty} onBar={open} />
        )}
        <BarChart id="domain" title="Passed by domain" bars={o.byDomain} onBar={open} />
        <BarChart id="termination" title="Termination reasons" bars={o.termination} horizontal onBar={open} />
        <BarChart id="failure" title="Failure causes" bars={o.failure} horizontal onBar={open} />
        {o.score.length > 0 && <BarChart id="score" title="Score" bars={o.score} onBar={open} />}
        <BarChart id="turns" title="User turns per conversation" bars={o.turns} onBar={open} />
        <BarChart id="tools" title="Tool calls per conversation" bars={o.toolCalls} onBar={open} />
        {o.tokens.length > 0 && (
          <BarChart id="tokens" title="Tokens per conversation" bars={o.tokens} onBar={open} />
        )}
      </div>
    </section>
  );
}
