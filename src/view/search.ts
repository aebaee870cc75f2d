import { open } from 'node:fs/promises';
import type { EpisodeFacts } from './facts.js';
import type { JsonlIndex } from './jsonl-index.js';

/**
 * The pattern of a text search in raw record lines: the query as JSON writes it inside a string (quotes and
 * backslashes escaped), as UTF-8 bytes read one byte per character (lines are searched as latin1 text, which
 * is fast), case-insensitive for ASCII letters; other characters match exactly.
 */
export function searchPattern(text: string): RegExp {
  const escaped = JSON.stringify(text).slice(1, -1);
  const bytes = Buffer.from(escaped, 'utf8').toString('latin1');
  return new RegExp(bytes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** Case-insensitive test of plain text (for records held in memory). */
export function textMatches(haystack: string, text: string): boolean {
  return haystack.toLowerCase().includes(text.toLowerCase());
}

/**
 * Lines of the indexed records whose `messages` bytes match `text` (see {@link searchPattern}), reading runs of
 * consecutive records up to 8 MB at a time.
 */
export async function searchRecords(file: string, index: JsonlIndex, text: string): Promise<Set<number>> {
  const hits = new Set<number>();
  const pattern = searchPattern(text);
  const handle = await open(file, 'r');
  try {
    const facts = index.facts;
    const chunk = 8 * 1024 * 1024;
    let i = 0;
    while (i < facts.length) {
      // read a run of consecutive records up to `chunk` bytes in one go
      const first = index.spans.get((facts[i] as EpisodeFacts).line);
      let j = i + 1;
      let end = first.offset + first.length;
      while (j < facts.length) {
        const s = index.spans.get((facts[j] as EpisodeFacts).line);
        if (s.offset + s.length - first.offset > chunk && j > i) break;
        end = s.offset + s.length;
        j++;
      }
      const buf = Buffer.allocUnsafe(end - first.offset);
      await handle.read(buf, 0, buf.length, first.offset);
      for (let k = i; k < j; k++) {
        const f = facts[k] as EpisodeFacts;
        const s = index.spans.get(f.line);
        const from = s.offset - first.offset;
        const a = s.messagesStart >= 0 ? from + s.messagesStart : from;
        const b = s.messagesEnd >= 0 ? from + s.messagesEnd : from + s.length;
        if (pattern.test(buf.toString('latin1', a, b))) hits.add(f.line);
      }
      i = j;
    }
  } finally {
    await handle.close();
  }
  return hits;
}
