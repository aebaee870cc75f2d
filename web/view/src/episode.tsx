import type { EpisodeDetail } from './api.js';
import { type CallMarks, Chat } from './chat.js';
import { int, num, usd } from './format.js';
import { callConstraints, constraintsOf, list, obj } from './links.js';
import { StateDiffPanel, TaskPanel, VerificationPanel } from './panels.js';
import { href } from './route.js';
import { useFetch } from './use-fetch.js';

/** Marks of the calls of an episode: constraints served (by the task) and redundant writes (by the verifier). */
export function marksOf(detail: EpisodeDetail): CallMarks {
  const constraints = callConstraints(detail.messages ?? [], constraintsOf(detail.task));
  const redundant = new Map<string, string>();
  for (const raw of list(obj(obj(detail.record).verification).redundant)) {
    const r = obj(raw);
    redundant.set(String(r.call_id), String(r.reason));
  }
  return { constraints, redundant };
}

/** The header line of an episode: ids, roles, verdict. */
export function EpisodeHeader(props: { detail: EpisodeDetail }) {
  const f = props.detail.facts;
  const r = obj(props.detail.record);
  if (f === undefined) return null;
  return (
    <div class="episode-head">
      <h1>
        Task {f.taskId}{' '}
        <span class="muted">
          · line {f.line + 1} · {f.id}
        </span>
      </h1>
      <p>
        <span class={`badge ${f.passed ? 'good' : 'bad'}`} id="verdict">
          {f.passed ? 'passed' : 'not passed'}
        </span>
        {f.sft !== null && <span class="badge">{f.sft ? 'kept for SFT' : 'not kept for SFT'}</span>}
        <span class="badge">termination: {f.termination}</span>
        {typeof r.termination_detail === 'string' && <span class="badge bad">{r.termination_detail}</span>}
        {f.failure !== null && <span class="badge bad">failure: {f.failure}</span>}
        {f.score !== null && <span class="badge">score {num(f.score)}</span>}
        {f.reward !== null && <span class="badge">reward {num(f.reward)}</span>}
        <span class="muted">
          {' '}
          agent {f.agent || '?'} · user {f.user || '?'} · {f.userTurns} user turns · {f.toolCalls} tool calls
          · {int(f.promptTokens + f.completionTokens)} tokens
          {f.costUsd > 0 && ` · ${usd(f.costUsd)}`}
        </span>
      </p>
    </div>
  );
}

/** A malformed line: why and the start of its text. */
export function Malformed(props: { detail: EpisodeDetail }) {
  const m = props.detail.malformed;
  if (m === undefined) return null;
  return (
    <div class="malformed-box" id="malformed">
      <h2>Line {props.detail.line + 1} is not a readable record</h2>
      <p>{m.reason}</p>
      <pre>{m.text}</pre>
    </div>
  );
}

/** One episode: the chat beside the task, the verification and the state diff. */
export function EpisodePage(props: { src: number; line: number }) {
  const loaded = useFetch<EpisodeDetail>(
    '/api/episode',
    new URLSearchParams({ src: String(props.src), line: String(props.line) }),
  );
  if (loaded.state === 'loading') return <p class="muted">loading…</p>;
  if (loaded.state === 'error') return <p class="error">{loaded.error}</p>;
  const d = loaded.data;
  const nav = (
    <p class="nav">
      <a href={href('list', { src: props.src })}>← episodes</a>
      {props.line > 0 && (
        <a href={href('episode', { src: props.src, line: props.line - 1 })}>previous line</a>
      )}
      <a href={href('episode', { src: props.src, line: props.line + 1 })}>next line</a>
    </p>
  );
  if (d.malformed !== undefined) {
    return (
      <section class="episode">
        {nav}
        <Malformed detail={d} />
      </section>
    );
  }
  const marks = marksOf(d);
  const servedBy = new Map<string, string[]>();
  for (const [call, cs] of marks.constraints)
    for (const c of cs) servedBy.set(c, [...(servedBy.get(c) ?? []), call]);
  return (
    <section class="episode">
      {nav}
      <EpisodeHeader detail={d} />
      <div class="episode-cols">
        <div class="col-chat">
          <Chat messages={d.messages ?? []} marks={marks} />
        </div>
        <div class="col-side">
          <VerificationPanel detail={d} servedBy={servedBy} />
          <TaskPanel detail={d} />
          <StateDiffPanel src={props.src} detail={d} />
        </div>
      </div>
    </section>
  );
}
