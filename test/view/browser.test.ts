import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { startView, type ViewProcess } from '../helpers/view-process.js';
import { makeViewRuns, readSummary, type ViewRuns } from '../helpers/view-runs.js';

// The viewer's page in a real browser: Debian's Chromium driven by playwright-core, over a run made in the test
// by `cove generate` with model roles played by a faulty `cove mock-llm`, plus two lines added by hand: a
// malformed line and a record whose user message holds HTML with script. Screenshots go to .tmp/view-test/.

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = join(REPO, '.tmp', 'view-test');
const N = 16;
const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> please help';

interface Rec {
  id: string;
  failure?: string;
  termination_reason: string;
  messages: { role: string; content: string | null }[];
  verification: { constraints: { id: string; kind: string; satisfied: boolean; evidence: string }[] };
}

let runs: ViewRuns;
let view: ViewProcess;
let browser: Browser;
let page: Page;
let records: Rec[];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: install it with \`apt-get install -y chromium\``,
    );
  }
  runs = await makeViewRuns(N, 'cove-view-browser-', false);
  const file = join(runs.model, 'trajectories.jsonl');
  const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] as string) as Rec;
  const hostile: Rec = {
    ...first,
    id: 'hostile-record',
    messages: first.messages.map((m, i) => (i === 1 ? { ...m, content: HOSTILE } : m)),
  };
  appendFileSync(file, `{"id": "torn", "messages": [{"role": "us\n${JSON.stringify(hostile)}\n`);
  records = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Rec];
      } catch {
        return [];
      }
    });
  view = await startView([runs.model]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('dialog', (d) => void d.dismiss());
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await view?.close();
  runs?.remove();
});

async function show(hash: string): Promise<void> {
  await page.goto(`${view.origin}/${hash}`);
}

describe('cove view in Chromium', () => {
  it('renders the overview with the run’s counts and a malformed line flagged', async () => {
    await show('#/');
    const cards = page.locator('.card');
    await cards.first().waitFor();
    const episodes = page.locator('.card', { hasText: 'episodes' }).first().locator('.card-value');
    expect(await episodes.textContent()).toBe(String(N + 1)); // the hostile copy is a record, the torn line is not
    const malformed = page.locator('.card', { hasText: 'malformed lines' }).locator('.card-value');
    expect(await malformed.textContent()).toBe('1');
    expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(6);
    await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });
  });

  it('opens the episodes behind a clicked bar', async () => {
    await show('#/');
    const canvas = page.locator('#chart-termination canvas');
    await canvas.waitFor();
    const bars = JSON.parse((await canvas.getAttribute('data-bars')) ?? '[]') as {
      label: string;
      x: number;
      y: number;
    }[];
    const bar = bars[0];
    expect(bar).toBeDefined();
    await canvas.click({ position: { x: bar?.x ?? 0, y: bar?.y ?? 0 } });
    await page.waitForURL(/#\/list\?/);
    expect(decodeURIComponent(page.url())).toContain(`termination=${bar?.label}`);
    const expected = records.filter((r) => r.termination_reason === bar?.label).length;
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(String(expected));
  });

  it('narrows the list with a filter and with a text search', async () => {
    await show('#/list');
    await page.locator('#match-count').waitFor();
    expect(await page.locator('#match-count').textContent()).toBe(String(N + 1));
    const kind = records[0]?.verification.constraints[0]?.kind as string;
    await page.selectOption('select[name=kind]', kind);
    const withKind = records.filter((r) => r.verification.constraints.some((c) => c.kind === kind)).length;
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(String(withKind));
    expect(withKind).toBeLessThan(N + 1);
    expect(await page.locator('table.episodes tbody tr').count()).toBe(withKind);
    await page.screenshot({ path: join(SHOTS, 'list-filtered.png'), fullPage: true });
    await show('#/list');
    await page.fill('input[name=q]', 'window.__PWNED');
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe('1');
    // back to the whole list (same page, new route): the box no longer shows the search
    await show('#/list');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(String(N + 1));
    expect(await page.inputValue('input[name=q]')).toBe('');
    // and the browser's back button brings the search back into the box with its list
    await page.goBack();
    await expect.poll(() => page.locator('#match-count').textContent()).toBe('1');
    expect(await page.inputValue('input[name=q]')).toBe('window.__PWNED');
  });

  it('shows an episode’s messages and verdict', async () => {
    const summary = readSummary(runs.model);
    expect(summary.sft_trajectories).toBeLessThan(N);
    const line = records.findIndex(
      (r) => r.failure !== undefined && r.verification.constraints.some((c) => !c.satisfied),
    );
    const target = line >= 0 ? line : records.findIndex((r) => r.failure !== undefined);
    const rec = records[target] as Rec;
    await show(`#/episode?src=0&line=${target}`);
    await page.locator('.chat').waitFor();
    expect(await page.locator('#verdict').textContent()).toBe('not passed');
    const firstUser = rec.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(await page.locator('.msg.user .text').first().textContent()).toBe(firstUser);
    const constraints = page.locator('.verification .constraints li');
    expect(await constraints.count()).toBe(rec.verification.constraints.length);
    for (const [i, c] of rec.verification.constraints.entries()) {
      expect(await constraints.nth(i).textContent()).toContain(`${c.satisfied ? '✓' : '✗'} ${c.id}`);
    }
    await page.getByText('replay and compare with the gold state').click();
    await page.locator('.state-diff .entity, .state-diff p').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'episode.png'), fullPage: true });
  });

  it('shows a malformed line as such, and the page keeps working', async () => {
    const line = readFileSync(join(runs.model, 'trajectories.jsonl'), 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('{"id": "torn"'));
    await show(`#/episode?src=0&line=${line}`);
    await page.locator('#malformed').waitFor();
    expect(await page.locator('#malformed h2').textContent()).toBe(
      `Line ${line + 1} is not a readable record`,
    );
    expect(await page.locator('#malformed p').textContent()).toMatch(/^not JSON/);
    await page.screenshot({ path: join(SHOTS, 'malformed.png'), fullPage: true });
    await page.click('text=← episodes');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(String(N + 1));
  });

  it('lists the malformed lines alone, without the filters that do not apply to them, with a way back', async () => {
    await show('#/list?src=0&malformed=yes');
    await page.locator('tr.malformed').first().waitFor();
    expect(await page.locator('tr.malformed').count()).toBe(1);
    expect(await page.locator('form.filters').count()).toBe(0);
    await page.click('#clear-malformed');
    await expect.poll(() => page.locator('#match-count').textContent()).toBe(String(N + 1));
    expect(await page.locator('form.filters').count()).toBe(1);
  });

  it('links the calls a constraint’s evidence names to those calls', async () => {
    const target = records.findIndex((r) =>
      r.verification.constraints.some((c) => /\bcall_\d+\b/.test(c.evidence)),
    );
    expect(target).toBeGreaterThanOrEqual(0);
    const rec = records[target] as Rec;
    const c = rec.verification.constraints.find((x) =>
      /\bcall_\d+\b/.test(x.evidence),
    ) as Rec['verification']['constraints'][number];
    const named = [...c.evidence.matchAll(/\bcall_\d+\b/g)].map((m) => m[0]);
    // the run's own lines come first in the file (the torn line and the hostile copy follow), so index = line
    await show(`#/episode?src=0&line=${target}`);
    const links = page.locator(`#constraint-${c.id} .evidence button.link`);
    await links.first().waitFor();
    expect(await links.allTextContents()).toEqual(named);
    expect(await page.locator(`#constraint-${c.id} .evidence`).textContent()).toBe(c.evidence);
    await links.first().click();
    await expect.poll(() => page.locator(`#call-${named[0]}.flash`).count()).toBe(1);
  });

  it('shows text from records as text: a <script> in a message is displayed, not run', async () => {
    const line = records.findIndex((r) => r.id === 'hostile-record') + 1; // the torn line comes before it
    await show(`#/episode?src=0&line=${line}`);
    await page.locator('.chat').waitFor();
    expect(await page.locator('.msg.user .text').first().textContent()).toBe(HOSTILE);
    expect(await page.locator('#app script, #app img').count()).toBe(0);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    await page.screenshot({ path: join(SHOTS, 'script-as-text.png') });
  });
});
