import { useState } from 'preact/hooks';
import type { EntityStateDiff, EpisodeDetail, StateDiffResult } from './api.js';
import { getJson } from './api.js';
import { evidenceParts } from './evidence.js';
import { fieldDiff } from './field-diff.js';
import { num, prettyJson } from './format.js';
import { type ConstraintInfo, constraintsOf, jump, list, obj, serves } from './links.js';

/** A JSON value as an indented text block. */
export function JsonBlock(props: { value: unknown }) {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

/** The verifier's verdict: each constraint with its evidence, redundant writes, evaluation, τ²'s reward info. */
export function VerificationPanel(props: {
  detail: EpisodeDetail;
  servedBy: ReadonlyMap<string, readonly string[]>;
}) {
  const record = obj(props.detail.record);
  const v = obj(record.verification);
  const callIds = (props.detail.messages ?? []).flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
  const evaluation = record.evaluation;
  const rewardInfo = record.reward_info;
  return (
    <section class="panel verification">
      <h2>Verification</h2>
      {record.verification === undefined && rewardInfo === undefined && evaluation === undefined && (
        <p class="muted">this record carries no verification</p>
      )}
      {record.verification !== undefined && (
        <>
          <p class="verdict">
            <span class={`badge ${v.score === 1 ? 'good' : 'bad'}`} id="verdict-score">
              score {num(typeof v.score === 'number' ? v.score : null)}
            </span>
            <span class={`badge ${v.stateMatch === true ? 'good' : 'bad'}`}>
              {v.stateMatch === true ? 'state matches gold' : 'state differs from gold'}
            </span>
            <span class={`badge ${v.tau2Reward === 1 ? 'good' : 'bad'}`}>
              τ² reward {String(v.tau2Reward)}
            </span>
            <span class={`badge ${v.terminationOk === true ? 'good' : 'bad'}`}>
              {v.terminationOk === true ? 'ended by a stop' : 'did not end by a stop'}
            </span>
          </p>
          <ul class="constraints">
            {list(v.constraints).map((raw) => {
              const c = obj(raw);
              const id = String(c.id);
              return (
                <li key={id} id={`constraint-${id}`} class={c.satisfied === true ? 'ok' : 'not-ok'}>
                  <strong>
                    {c.satisfied === true ? '✓' : '✗'} {id}
                  </strong>{' '}
                  <code>{String(c.kind)}</code> —{' '}
                  <span class="evidence">
                    {evidenceParts(String(c.evidence), callIds).map((part, i) =>
                      'call' in part ? (
                        <button
                          type="button"
                          class="badge link"
                          key={`${i}-${part.call}`}
                          onClick={() => jump(`call-${part.call}`)}
                        >
                          {part.call}
                        </button>
                      ) : (
                        part.text
                      ),
                    )}
                  </span>
                  {(props.servedBy.get(id) ?? []).map((call) => (
                    <button type="button" class="badge link" key={call} onClick={() => jump(`call-${call}`)}>
                      by {call}
                    </button>
                  ))}
                </li>
              );
            })}
          </ul>
          {list(v.redundant).length > 0 && (
            <>
              <h3>Redundant writes</h3>
              <ul>
                {list(v.redundant).map((raw) => {
                  const r = obj(raw);
                  return (
                    <li key={String(r.call_id)}>
                      <button
                        type="button"
                        class="badge link bad"
                        onClick={() => jump(`call-${String(r.call_id)}`)}
                      >
                        {String(r.call_id)}
                      </button>{' '}
                      <code>{String(r.tool)}</code>{' '}
                      {String(r.reason) === 'duplicate'
                        ? 'repeats a write already counted'
                        : 'wrote outside every constraint'}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </>
      )}
      {evaluation !== undefined && (
        <details open>
          <summary>
            Evaluation: {String(obj(evaluation).evaluator ?? '')}, reward {String(obj(evaluation).reward)}
          </summary>
          <JsonBlock value={obj(evaluation).report} />
        </details>
      )}
      {rewardInfo !== undefined && <Tau2Reward info={obj(rewardInfo)} />}
    </section>
  );
}

function Tau2Reward(props: { info: Record<string, unknown> }) {
  const i = props.info;
  return (
    <div class="tau2-reward">
      <p>
        <span class={`badge ${i.reward === 1 ? 'good' : 'bad'}`} id="verdict-score">
          reward {String(i.reward)}
        </span>{' '}
        basis {list(i.reward_basis).join(', ')}
      </p>
      <JsonBlock value={i.reward_breakdown} />
      {obj(i.db_check).db_match !== undefined && (
        <p>DB check: {obj(i.db_check).db_match === true ? 'match' : 'mismatch'}</p>
      )}
      {list(i.action_checks).length > 0 && (
        <ul>
          {list(i.action_checks).map((raw, n) => {
            const a = obj(raw);
            return (
              <li key={n} class={a.action_match === true ? 'ok' : 'not-ok'}>
                {a.action_match === true ? '✓' : '✗'} <code>{String(obj(a.action).name)}</code>{' '}
                {JSON.stringify(obj(a.action).arguments)}
              </li>
            );
          })}
        </ul>
      )}
      {list(i.communicate_checks).length > 0 && (
        <ul>
          {list(i.communicate_checks).map((raw, n) => {
            const c = obj(raw);
            return (
              <li key={n} class={c.met === true ? 'ok' : 'not-ok'}>
                {c.met === true ? '✓' : '✗'} communicate “{String(c.info)}”
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The task: scenario, fuzzified references, constraints with their gold actions. */
export function TaskPanel(props: { detail: EpisodeDetail }) {
  const task = props.detail.task;
  if (task === undefined) {
    return (
      <section class="panel task">
        <h2>Task</h2>
        <p class="muted">{props.detail.taskNote ?? 'no task'}</p>
      </section>
    );
  }
  const t = obj(task);
  const instructions = obj(obj(t.user_scenario).instructions);
  const cove = obj(t.cove);
  const actions = list(obj(t.evaluation_criteria).actions).map(obj);
  const constraints: ConstraintInfo[] = constraintsOf(task);
  return (
    <section class="panel task">
      <h2>Task {String(t.id)}</h2>
      <dl class="scenario">
        {Object.entries(instructions).map(([k, v]) => (
          <div key={k}>
            <dt>{k.replace(/_/g, ' ')}</dt>
            <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
          </div>
        ))}
      </dl>
      {cove.fuzz !== undefined && (
        <details>
          <summary>Fuzzified references (level {String(obj(cove.fuzz).level ?? '?')})</summary>
          <JsonBlock
            value={{
              user: obj(cove.fuzz).user,
              requests: obj(cove.fuzz).requests,
              references: cove.references,
            }}
          />
        </details>
      )}
      {constraints.length > 0 && <h3>Constraints</h3>}
      <ul class="constraints">
        {constraints.map((c) => (
          <li key={c.id}>
            <strong>{c.id}</strong> <code>{c.kind}</code>
            <pre class="json">{JSON.stringify(c.args, null, 2)}</pre>
            {actions
              .filter((a) => serves(c, String(a.name), obj(a.arguments)))
              .map((a) => (
                <div class="gold" key={String(a.action_id)}>
                  gold: <code>{String(a.name)}</code> {JSON.stringify(a.arguments)}
                </div>
              ))}
          </li>
        ))}
      </ul>
      {constraints.length === 0 && actions.length > 0 && (
        <>
          <h3>Gold actions</h3>
          <ol>
            {actions.map((a) => (
              <li key={String(a.action_id)}>
                <code>{String(a.name)}</code> {JSON.stringify(a.arguments)}
              </li>
            ))}
          </ol>
        </>
      )}
      {list(obj(t.evaluation_criteria).communicate_info).length > 0 && (
        <p>must communicate: {list(obj(t.evaluation_criteria).communicate_info).join(', ')}</p>
      )}
    </section>
  );
}

/** The parsed JSON text of an entity in one state (`undefined`: absent; the raw text when not JSON). */
function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The fields whose values are not the same after the episode, after the gold actions and before. */
function FieldDiff(props: { entity: EntityStateDiff }) {
  const e = props.entity;
  const rows = fieldDiff(parsed(e.final), parsed(e.gold), parsed(e.base));
  if (rows.length === 0) {
    return (
      <p class="note">
        {e.match
          ? 'no field changed'
          : 'the texts differ only in number formatting (e.g. 2 vs 2.0), as τ² hashes them'}
      </p>
    );
  }
  return (
    <table class="field-diff">
      <thead>
        <tr>
          <th>field</th>
          <th>episode</th>
          <th>gold</th>
          <th>before</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.path} class={r.final === r.gold ? 'ok' : 'not-ok'}>
            <td>
              <code>{r.path || '(value)'}</code>
            </td>
            <td>{r.final ?? '(absent)'}</td>
            <td>{r.gold ?? '(absent)'}</td>
            <td>{r.base ?? '(absent)'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The state diff against the gold state, computed on request. */
export function StateDiffPanel(props: { src: number; detail: EpisodeDetail }) {
  const [diff, setDiff] = useState<StateDiffResult | { error: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const availability = props.detail.stateDiff;
  const load = () => {
    setBusy(true);
    getJson<StateDiffResult>(
      '/api/state-diff',
      new URLSearchParams({ src: String(props.src), line: String(props.detail.line) }),
    ).then(
      (d) => {
        setDiff(d);
        setBusy(false);
      },
      (e: Error) => {
        setDiff({ error: e.message });
        setBusy(false);
      },
    );
  };
  return (
    <section class="panel state-diff">
      <h2>State diff against gold</h2>
      {!availability.available && <p class="muted">{availability.reason}</p>}
      {availability.available && diff === undefined && (
        <button type="button" onClick={load} disabled={busy}>
          {busy ? 'replaying…' : 'replay and compare with the gold state'}
        </button>
      )}
      {diff !== undefined && 'error' in diff && <p class="error">{diff.error}</p>}
      {diff !== undefined && !('error' in diff) && (
        <>
          {diff.notes.map((n) => (
            <p class={diff.available ? 'note' : 'muted'} key={n}>
              {n}
            </p>
          ))}
          {diff.available && diff.entities.length === 0 && (
            <p>neither the episode nor the gold actions changed anything</p>
          )}
          {diff.entities.map((e) => (
            <details
              class={`entity ${e.match ? 'ok' : 'not-ok'}`}
              key={`${e.collection}/${e.key}`}
              open={!e.match}
            >
              <summary>
                {e.match ? '✓' : '✗'} {e.collection} {e.key} {e.match ? 'as gold' : 'differs from gold'}
                {e.changedBy.map((id) => (
                  <button type="button" class="badge link" key={id} onClick={() => jump(`call-${id}`)}>
                    {id}
                  </button>
                ))}
              </summary>
              <FieldDiff entity={e} />
              <details>
                <summary>whole entity</summary>
                <div class="diff-cols">
                  <div>
                    <h4>episode</h4>
                    <pre>{e.final === null ? '(absent)' : prettyJson(e.final)}</pre>
                  </div>
                  <div>
                    <h4>gold</h4>
                    <pre>{e.gold === null ? '(absent)' : prettyJson(e.gold)}</pre>
                  </div>
                  <div>
                    <h4>before</h4>
                    <pre>{e.base === null ? '(absent)' : prettyJson(e.base)}</pre>
                  </div>
                </div>
              </details>
            </details>
          ))}
        </>
      )}
    </section>
  );
}
