import type { ViewMessage } from './api.js';
import { prettyJson } from './format.js';
import { jump } from './links.js';

/** A message's usage in words: tokens, cost, retries. */
function usageText(u: Readonly<Record<string, number>>): string {
  const parts: string[] = [];
  if (u.prompt_tokens !== undefined) parts.push(`${u.prompt_tokens} prompt`);
  if (u.completion_tokens !== undefined) parts.push(`${u.completion_tokens} completion tokens`);
  if ((u.cost_usd ?? 0) > 0) parts.push(`$${(u.cost_usd ?? 0).toFixed(5)}`);
  if ((u.retries ?? 0) > 0) parts.push(`${u.retries} ${u.retries === 1 ? 'retry' : 'retries'}`);
  return parts.join(' · ');
}

/** What the chat marks on a call: the constraints it served and why it was redundant. */
export interface CallMarks {
  readonly constraints: ReadonlyMap<string, readonly string[]>;
  readonly redundant: ReadonlyMap<string, string>;
}

function ToolCall(props: {
  prefix: string;
  call: { id: string; name: string; arguments: string };
  result: ViewMessage | undefined;
  marks: CallMarks;
}) {
  const { call, result, marks } = props;
  const served = marks.constraints.get(call.id) ?? [];
  const redundant = marks.redundant.get(call.id);
  const error = result?.error === true;
  return (
    <div
      class={`call${error ? ' call-error' : ''}${redundant !== undefined ? ' call-redundant' : ''}`}
      id={`${props.prefix}call-${call.id}`}
    >
      <div class="call-head">
        <span class="call-name">{call.name}</span>
        <span class="call-id">{call.id}</span>
        {served.map((c) => (
          <button type="button" class="badge link" key={c} onClick={() => jump(`constraint-${c}`)}>
            served {c}
          </button>
        ))}
        {redundant !== undefined && <span class="badge bad">redundant ({redundant})</span>}
        {error && <span class="badge bad">error</span>}
      </div>
      <details class="args">
        <summary>arguments</summary>
        <pre>{prettyJson(call.arguments)}</pre>
      </details>
      {result === undefined ? (
        <p class="muted">no result</p>
      ) : (
        <details class="result" open={error}>
          <summary>{error ? 'result (error)' : 'result'}</summary>
          <pre class={error ? 'error-text' : ''}>{prettyJson(result.content ?? '')}</pre>
        </details>
      )}
    </div>
  );
}

/**
 * A conversation as a chat: user and agent turns as bubbles, each tool call with its arguments and result
 * folded under it (errors open and red), the system prompt folded. All text goes through Preact as text.
 */
export function Chat(props: { messages: readonly ViewMessage[]; marks: CallMarks; prefix?: string }) {
  const prefix = props.prefix ?? '';
  const results = new Map<string, ViewMessage>();
  for (const m of props.messages)
    if (m.role === 'tool' && m.tool_call_id !== undefined) results.set(m.tool_call_id, m);
  const calls = new Set(props.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)));
  return (
    <ol class="chat">
      {props.messages.map((m, i) => {
        if (m.role === 'tool' && m.tool_call_id !== undefined && calls.has(m.tool_call_id)) return null;
        if (m.role === 'system') {
          return (
            <li class="msg system" key={i}>
              <details>
                <summary>system prompt ({(m.content ?? '').length} characters)</summary>
                <pre>{m.content}</pre>
              </details>
            </li>
          );
        }
        return (
          <li class={`msg ${m.role}`} key={i} data-index={i}>
            <div class="who">
              {m.role === 'assistant' ? 'agent' : m.role}
              {m.usage !== undefined && <span class="usage">{usageText(m.usage)}</span>}
            </div>
            {m.content !== null && m.content !== '' && <div class="text">{m.content}</div>}
            {m.reasoning_content !== undefined && (
              <details class="reasoning">
                <summary>reasoning</summary>
                <pre>{m.reasoning_content}</pre>
              </details>
            )}
            {(m.tool_calls ?? []).map((c) => (
              <ToolCall prefix={prefix} call={c} result={results.get(c.id)} marks={props.marks} key={c.id} />
            ))}
            {m.role === 'tool' && <pre class={m.error === true ? 'error-text' : ''}>{m.content}</pre>}
          </li>
        );
      })}
    </ol>
  );
}
