import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInProcess } from '../helpers/generate-in-process.js';

/**
 * Issue 13: conversation-text bugs found by a fresh-user check, scanned in a generated run of 300 Retail tasks
 * (oracle agent, scripted user). Each check is a regex over the messages that counts the bad pattern; every
 * count must be 0.
 */
interface Message {
  role: string;
  content?: string | null;
}
interface Record {
  messages: Message[];
  verification: { score: number; stateMatch: boolean };
}

const dir = mkdtempSync(join(tmpdir(), 'cove-convo-text-'));
let records: Record[] = [];

beforeAll(async () => {
  await generateInProcess({ n: 300, out: dir });
  records = readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record);
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every (previous assistant text, message) pair of `role`, in order. */
function pairs(role: string): [string, string][] {
  const out: [string, string][] = [];
  for (const r of records) {
    let last = '';
    for (const m of r.messages) {
      if (m.role === role && m.content) out.push([last, m.content]);
      if (m.role === 'assistant' && m.content) last = m.content;
    }
  }
  return out;
}

function bad(role: string, test: (prev: string, text: string) => boolean): string[] {
  return pairs(role)
    .filter(([p, t]) => test(p, t))
    .map(([p, t]) => `${p} => ${t}`);
}

const REFUSAL = /\b(sorry|unfortunately|afraid|cannot|can't)\b/i;
// the persona praise openers; a closing message (###STOP###) may thank the agent whatever came before
const PRAISE =
  /You are (a star|the best)|Awesome|Oh wonderful|(?:^|[.!?] )Lovely|How nice|[Pp]erfect!|Thank you so much!/;
const DETAIL_QUESTION = /\b(which|email|zip code)\b[^.!?]*\?$/i;

describe('retail conversation text (issue 13)', () => {
  it('runs the oracle to full score', () => {
    expect(records.length).toBe(300);
    for (const r of records) expect([r.verification.score, r.verification.stateMatch]).toEqual([1, true]);
  });

  it('fits persona remarks to the situation: no praise on a refusal or a detail question, no filler opening', () => {
    expect(
      bad(
        'user',
        (p, t) => PRAISE.test(t) && !t.includes('###STOP###') && REFUSAL.test(p) && !/\bdone\b/i.test(p),
      ),
    ).toEqual([]);
    expect(bad('user', (p, t) => PRAISE.test(t) && DETAIL_QUESTION.test(p))).toEqual([]);
    const firsts = records.map((r) => r.messages.find((m) => m.role === 'user')?.content ?? '');
    const filler = /Okay, I think so|You are (a star|the best)|Oh, perfect|Awesome|Oh good|Hmm, okay|Phew/;
    expect(firsts.filter((t) => filler.test(t))).toEqual([]);
  });

  it('closes after a refused last request without calling it sorted or handled', () => {
    // issue 20 check: "That's all I needed - glad the sleeping bag is sorted." right after "only pending orders …"
    const success = /\bsorted\b|sorting that out|for handling|for helping with|taking care of|it's done/i;
    const closings = bad(
      'user',
      (p, t) => t.includes('###STOP###') && REFUSAL.test(p) && !/\bdone\b/i.test(p),
    );
    expect(closings.length).toBeGreaterThan(0);
    expect(closings.filter((c) => success.test(c.slice(c.indexOf(' => '))))).toEqual([]);
  });

  it('never says the same opener twice in a row and joins remarks as sentences', () => {
    expect(bad('user', (_, t) => /(?:^|[.!?] )([A-Z][^.!?]{1,40}[.!?]) \1/.test(t))).toEqual([]);
    // and never a thanks opener before a message that already thanks ("Thank you for your reply. Cool, thanks.")
    expect(bad('user', (_, t) => /^(?:Thank|Thanks)\b[^.!?]*[.!?] [^.!?]*\bthank/i.test(t))).toEqual([]);
    const glued =
      /[a-z] (?:(?:My|Our) (?:sister|partner|neighbor|friend|kid)|(?:The weather|Traffic|Work) (?:has been|was)|Much appreciated|Thanks a lot|Kind regards|Best regards|Let's get this done)/;
    expect(bad('user', (_, t) => glued.test(t))).toEqual([]);
    expect(bad('user', (_, t) => /[.!?] [a-z]/.test(t))).toEqual([]);
  });

  it('holds a refusal after push-back with the refusal’s own reason', () => {
    const reasons: [RegExp, RegExp][] = [
      [/not on your account|different account/, /your own account/],
      [/same product/, /same product/],
      [/method it was paid with/, /original payment method/],
      [/changed once|modified, which can only be done once/, /changed once/],
    ];
    let held = 0;
    const wrong: string[] = [];
    for (const r of records) {
      let refusal = '';
      for (const m of r.messages) {
        if (m.role !== 'assistant' || !m.content) continue;
        if (/make an exception/.test(m.content)) {
          held++;
          const why = reasons.find(([r]) => r.test(refusal))?.[1] ?? /only (pending|delivered) orders/;
          if (!why.test(m.content)) wrong.push(`${refusal} => ${m.content}`);
        } else if (REFUSAL.test(m.content)) refusal = m.content;
      }
    }
    expect(held).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it('pushes back on a refused second item change naming the refused item', () => {
    const refused = /cannot change the ([a-z -]+?) as well|so the ([a-z -]+?) cannot be changed now/;
    const named = /(?:exception for|really need|counting on) the ([a-z -]+?)[?.!]/;
    const wrong = bad('user', (p, t) => {
      const r = refused.exec(p);
      const n = named.exec(t);
      return r !== null && n !== null && n[1] !== (r[1] ?? r[2]);
    });
    expect(wrong).toEqual([]);
  });

  it('writes agent sentences with a capital, questions with "?", each product once', () => {
    expect(bad('assistant', (_, t) => /[.!?] [a-z]/.test(t))).toEqual([]);
    expect(
      bad('assistant', (_, t) => /(?:^|[.!?] )(?:Could|Can|Would|Shall|Should) (?:you|I)\b[^.!?]*\./.test(t)),
    ).toEqual([]);
    expect(bad('assistant', (_, t) => /(?:^|[.!?:,] )[Pp]lease [^.!?]*\?/.test(t))).toEqual([]);
    const lists = /(?:one|your order(?: \(#W\d+\))?) with the ([a-z -]+(?:, [a-z -]+)*(?: and [a-z -]+)?)/g;
    const repeated = bad('assistant', (_, t) =>
      [...t.matchAll(lists)].some((m) => {
        const names = (m[1] as string).split(/, | and /);
        return new Set(names).size !== names.length;
      }),
    );
    expect(repeated).toEqual([]);
    expect(
      bad('assistant', (_, t) => /zip code (?:does not|doesn't) match[^?]*full name and zip code/.test(t)),
    ).toEqual([]);
  });

  it('has no user slips: a capital after a comma, a doubled article, an imperative asked as a question', () => {
    expect(bad('user', (_, t) => /, (?:My|The|It's) /.test(t))).toEqual([]);
    expect(bad('user', (_, t) => /\bthe (?:new )?the\b/.test(t))).toEqual([]);
    expect(bad('user', (_, t) => /(?:^|[.!?] )(?:Please|Pls) [^.!?]*\?/.test(t))).toEqual([]);
    expect(bad('user', (_, t) => /(?:^|[.!?] )(?:Could|Can) you\b[^.!?]*\./.test(t))).toEqual([]);
    expect(bad('user', (_, t) => /(?:^|[.!?] )I need help to [^.!?]*\?/.test(t))).toEqual([]);
  });
});
