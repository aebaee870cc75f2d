/**
 * A constraint's evidence text cut into plain text and the ids of the episode's tool calls it names (a
 * refusal's "user identified by call_2 …, looked up by call_6 …"), so the page can make each id a link to its
 * call, as it does for the calls that served a write.
 */
export type EvidencePart = { readonly text: string } | { readonly call: string };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits `text` at the call ids of `calls` that appear in it as whole words (`call_1` does not match inside
 * `call_12`). Ids not among `calls` stay text.
 */
export function evidenceParts(text: string, calls: readonly string[]): EvidencePart[] {
  const ids = [...new Set(calls.filter((c) => c !== ''))].sort((a, b) => b.length - a.length);
  if (ids.length === 0) return text === '' ? [] : [{ text }];
  const re = new RegExp(`(?<![\\w-])(${ids.map(escapeRegExp).join('|')})(?![\\w-])`, 'g');
  const out: EvidencePart[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > at) out.push({ text: text.slice(at, i) });
    out.push({ call: m[1] as string });
    at = i + (m[1] as string).length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
