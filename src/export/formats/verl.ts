import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { ExportConversation } from '../conversation.js';
import { trainingMessages } from '../conversation.js';

/** One message of the `messages` column (a Parquet struct; absent fields are null). */
export interface VerlMessage {
  readonly role: string;
  readonly content: string;
  readonly reasoning_content: string | null;
  readonly tool_calls:
    | readonly { id: string; type: 'function'; function: { name: string; arguments: string } }[]
    | null;
  readonly tool_call_id: string | null;
  readonly name: string | null;
}

/** One row of the `verl` Parquet file. */
export interface VerlRow {
  readonly messages: readonly VerlMessage[];
  /** The OpenAI tool list as a JSON string (see {@link verlRow}). */
  readonly tools: string;
  readonly data_source: string;
  /** JSON string: `{id, task_id, trial, reward, constraint_kinds}`. */
  readonly extra_info: string;
}

/**
 * The verl multi-turn SFT row of a conversation (training-formats §2.4): `messages` as a list of structs with a
 * fixed set of fields (role, content, reasoning_content, tool_calls, tool_call_id, name), tool-call `arguments` as
 * JSON strings, and everything whose keys vary from row to row or tool to tool as JSON strings: `tools` (each
 * tool's `parameters.properties` has its own keys; stored as a struct, Arrow would give every tool the union of
 * all keys, as nulls, and the chat template would show them) and `extra_info`. The `cove_verl_dataset.py` written
 * beside the data turns them back into Python objects for verl (`data.custom_cls`). A null `content` becomes `""`
 * (verl's own example does the same). The user's final stop turn is left out.
 */
export function verlRow(conv: ExportConversation): VerlRow {
  const blank = { reasoning_content: null, tool_calls: null, tool_call_id: null, name: null };
  const messages: VerlMessage[] = [{ role: 'system', content: conv.system, ...blank }];
  for (const m of trainingMessages(conv.messages)) {
    if (m.role === 'assistant') {
      messages.push({
        ...blank,
        role: 'assistant',
        content: m.content ?? '',
        reasoning_content: m.reasoning_content ?? null,
        tool_calls:
          m.tool_calls === undefined || m.tool_calls.length === 0
            ? null
            : m.tool_calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.function.name, arguments: c.function.arguments },
              })),
      });
    } else if (m.role === 'tool') {
      messages.push({
        ...blank,
        role: 'tool',
        content: m.content,
        tool_call_id: m.tool_call_id,
        name: m.name,
      });
    } else {
      messages.push({ ...blank, role: m.role, content: m.content });
    }
  }
  return {
    messages,
    tools: JSON.stringify(conv.tools),
    data_source: conv.dataSource,
    extra_info: JSON.stringify({
      id: conv.id,
      task_id: conv.taskId,
      trial: conv.trial,
      reward: conv.reward,
      constraint_kinds: conv.constraintKinds,
    }),
  };
}

const utf8 = (name: string, repetition: 'REQUIRED' | 'OPTIONAL') =>
  ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition }) as const;

/**
 * The Parquet schema of the `verl` file (3-level LIST encoding, as Arrow and pandas write it):
 * `messages: list<struct<role, content, reasoning_content?, tool_calls?: list<struct<id, type,
 * function: struct<name, arguments>>>, tool_call_id?, name?>>`, `tools`, `data_source`, `extra_info`: strings.
 */
export const VERL_SCHEMA = [
  { name: 'root', num_children: 4 },
  { name: 'messages', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 6 },
  utf8('role', 'REQUIRED'),
  utf8('content', 'OPTIONAL'),
  utf8('reasoning_content', 'OPTIONAL'),
  { name: 'tool_calls', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 3 },
  utf8('id', 'REQUIRED'),
  utf8('type', 'REQUIRED'),
  { name: 'function', repetition_type: 'REQUIRED', num_children: 2 },
  utf8('name', 'REQUIRED'),
  utf8('arguments', 'REQUIRED'),
  utf8('tool_call_id', 'OPTIONAL'),
  utf8('name', 'OPTIONAL'),
  utf8('tools', 'REQUIRED'),
  utf8('data_source', 'REQUIRED'),
  utf8('extra_info', 'REQUIRED'),
] as const;

/** Rows per Parquet row group: what is held in memory before it goes to disk. */
export const VERL_ROW_GROUP = 1000;

/**
 * Writes `verl` rows to a Parquet file with hyparquet-writer, one row group per {@link VERL_ROW_GROUP} rows, so
 * memory stays bounded whatever the number of rows (the file writer flushes to disk every megabyte).
 */
export class VerlParquetWriter {
  readonly #writer: ParquetWriter;
  #rows: VerlRow[] = [];
  #count = 0;

  constructor(file: string, createdBy: string) {
    this.#writer = new ParquetWriter({
      writer: fileWriter(file),
      schema: VERL_SCHEMA.map((e) => ({ ...e })) as never,
      createdBy,
      // min/max statistics of long chat texts cost time and help no trainer (they read whole files)
      statistics: false,
    });
  }

  add(row: VerlRow): void {
    this.#rows.push(row);
    this.#count++;
    if (this.#rows.length >= VERL_ROW_GROUP) this.#flush();
  }

  #flush(): void {
    if (this.#rows.length === 0) return;
    const rows = this.#rows;
    this.#rows = [];
    const column = <K extends keyof VerlRow>(name: K) => ({ name, data: rows.map((r) => r[name]) as never });
    this.#writer.write({
      columnData: [column('messages'), column('tools'), column('data_source'), column('extra_info')],
      rowGroupSize: rows.length,
    });
  }

  /** Writes the last row group and the footer; returns the number of rows. */
  close(): number {
    this.#flush();
    this.#writer.finish();
    return this.#count;
  }
}
