import { ConfigError } from '../../core/errors.js';
import { toPyValue } from '../../core/py-value.js';
import type { Rng } from '../../core/rng.js';
import type { StateCollection } from '../../env/environment.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { Episode } from '../../env/episode.js';
import { PERSONAS, personaText } from '../../tasks/behaviour.js';
import type { ConstraintKind, Grounding } from '../../tasks/constraint.js';
import type { DomainSynthesis, DrawRequest, TaskDraft } from '../../tasks/synthesis.js';
import { drawCall } from './draw-call.js';
import { infoGoal } from './info-goal.js';
import { type Reference, renderReference, resolveReference } from './references.js';
import { refusalUse } from './rule-use.js';
import type { TableInfo } from './schema-info.js';
import type { SqlRuleJson } from './spec-schema.js';
import type { SqlTemplate } from './template-tool.js';
import { lookupParam, type WritePlan, writePlan } from './tool-plans.js';
import { ToolReach } from './tool-resolver.js';

/** One goal of a SQL task as the scripted roles and the recheck read it (`cove.fuzz.goals[i]`). */
export interface SqlGoal {
  readonly constraint: string;
  readonly kind: string;
  /** The request in words, as the user would make it. */
  readonly text: string;
  readonly references: readonly (Reference & { readonly param: string })[];
}

/** What SQL tasks keep in `cove.fuzz`. */
export interface SqlFuzz {
  readonly hidden_ids: readonly string[];
  readonly goals: readonly SqlGoal[];
}

interface Expected {
  readonly collection: string;
  readonly key: string;
  readonly row: unknown;
}

function plainJson(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plainJson(v)]));
  if (Array.isArray(value)) return value.map(plainJson);
  if (typeof value === 'bigint') return Number(value);
  return value ?? null;
}

function dumpOf(
  collections: readonly StateCollection[],
  episode: Episode | EnvironmentBase,
  collection: string,
  key: string,
): unknown {
  const c = collections.find((x) => x.name === collection);
  return plainJson(c?.dump(episode.sql, key, 'model_dump') ?? null);
}

function writeKind(plan: WritePlan, collections: readonly StateCollection[]): ConstraintKind {
  return {
    name: plan.template.json.name,
    category: 'write',
    writeTools: [plan.template.json.name],
    goldActions: (c) => [
      { name: plan.template.json.name, arguments: c.args.call as Record<string, unknown> },
    ],
    predicate(c, { final }) {
      const expected = c.args.expect as Expected[];
      for (const e of expected) {
        const got = dumpOf(collections, final, e.collection, e.key);
        if (JSON.stringify(got) !== JSON.stringify(e.row))
          return {
            satisfied: false,
            evidence: `${e.collection} ${e.key} is ${JSON.stringify(got)}, expected ${JSON.stringify(e.row)}`,
          };
      }
      return {
        satisfied: true,
        evidence: `${expected.map((e) => `${e.collection} ${e.key}`).join(', ')} as the gold call leaves them`,
      };
    },
  };
}

function refusalKind(rule: SqlRuleJson, plan: WritePlan, lookups: Grounding['lookup']): ConstraintKind {
  return {
    name: `refuse_${rule.name}`,
    category: 'refusal',
    grounding: {
      identify: [],
      lookup: lookups,
      entity: { collection: plan.table.name, constraintArg: 'entity_key' },
    },
    writeTools: [],
    goldActions: () => [],
    predicate(c, { final }) {
      const key = String(c.args.entity_key);
      const touched = final.changedEntities().some((r) => r.collection === plan.table.name && r.key === key);
      return {
        satisfied: !touched,
        evidence: touched ? `${plan.table.name} ${key} was changed` : `${plan.table.name} ${key} unchanged`,
      };
    },
  };
}

function infoKind(template: SqlTemplate): ConstraintKind {
  return {
    name: `info_${template.json.name}`,
    category: 'information',
    writeTools: [],
    goldActions: () => [],
    predicate(c, { agentTexts }) {
      const value = String(c.args.value).toLowerCase();
      const told = agentTexts.some((t) => t.toLowerCase().includes(value));
      return {
        satisfied: told,
        evidence: told ? `the agent said ${c.args.value}` : `the agent never said ${c.args.value}`,
      };
    },
  };
}

/** What {@link sqlSynthesis} needs of a loaded spec. */
export interface SqlSynthesisInput {
  readonly templates: readonly SqlTemplate[];
  readonly tables: readonly TableInfo[];
  readonly rules: readonly SqlRuleJson[];
  readonly collections: readonly StateCollection[];
}

/** The synthesis of a SQL domain, with the rules that can never give a refusal task and why. */
export interface SqlSynthesis extends DomainSynthesis {
  readonly unusedRules: readonly { readonly rule: string; readonly why: string }[];
}

/** The `userId` of every SQL task: the domain's kinds identify no particular customer. */
const SQL_USER = 'user';

/** Draws of one constraint slot before the whole draft is rejected (keeps hard kinds from being starved). */
const SLOT_ATTEMPTS = 12;

type Picked =
  | { readonly type: 'write'; readonly plan: WritePlan; readonly rules: readonly SqlRuleJson[] }
  | { readonly type: 'refusal'; readonly plan: WritePlan; readonly rule: SqlRuleJson }
  | {
      readonly type: 'info';
      readonly template: SqlTemplate;
      readonly param: string;
      readonly table: TableInfo;
    };

/**
 * Generic CoVe synthesis for any SQL domain (issue 18 item 4): every drivable write template is a kind whose
 * predicate is "the rows the call changes look exactly as the gold call leaves them" (footprint: those rows);
 * every rule a refusal kind (no successful write touches the entity, grounded by a lookup read); every
 * lookup-by-key read an information kind (the agent must tell a value it returns). Entities the user refers to
 * are described by {@link describeRow} and never by their key at fuzz levels 1–2.
 */
export function sqlSynthesis(input: SqlSynthesisInput): SqlSynthesis {
  const { tables } = input;
  const reach = new ToolReach(input.templates, tables);
  const plans = input.templates.flatMap((t) => {
    const p = writePlan(t, tables);
    return p === undefined ? [] : [p];
  });
  const lookups = input.templates.flatMap((t) => {
    const l = lookupParam(t, tables);
    return l === undefined ? [] : [{ template: t, ...l }];
  });
  const picks: Picked[] = plans.map(
    (plan) =>
      ({
        type: 'write',
        plan,
        rules: input.rules.filter((r) => r.tool === plan.template.json.name),
      }) as const,
  );
  const kinds: ConstraintKind[] = plans.map((p) => writeKind(p, input.collections));
  const unusedRules: { rule: string; why: string }[] = [];
  for (const rule of input.rules) {
    const use = refusalUse(rule, plans, lookups);
    if ('why' in use) {
      unusedRules.push({ rule: rule.name, why: use.why });
      continue;
    }
    kinds.push(refusalKind(rule, use.plan, use.reads));
    picks.push({ type: 'refusal', plan: use.plan, rule });
  }
  for (const l of lookups) {
    // something to ask besides the columns a description may use: at least two plain (non-key) columns
    const fk = new Set(l.table.foreignKeys.flatMap((f) => f.columns));
    const plainColumns = l.table.columns.filter(
      (c) => !l.table.primaryKey.includes(c.name) && !fk.has(c.name),
    );
    if (plainColumns.length < 2) continue;
    kinds.push(infoKind(l.template));
    picks.push({ type: 'info', template: l.template, param: l.param, table: l.table });
  }
  const undescribable = undescribableTables(picks, reach);
  return {
    unusedRules,
    kinds,
    draw: (rng, base, request) => {
      // at --fuzz 2 every row is described; when no kind has all its rows describable, no draw can ever succeed
      if (request.fuzzLevel === 2 && undescribable !== undefined) throw noDescriptionError(undescribable);
      return draw(rng, base, request, picks, tables, input.collections, reach);
    },
    recheck(base, constraints, fuzz) {
      const problems: string[] = [];
      for (const goal of (fuzz as unknown as SqlFuzz).goals ?? []) {
        for (const ref of goal.references) {
          if (ref.clauses.length === 0) continue;
          const rows = resolveReference(base.sql, tables, ref);
          if (rows.length !== 1 || JSON.stringify(rows[0]) !== JSON.stringify(ref.key))
            problems.push(`${goal.constraint}: ${renderReference(tables, ref)} matches ${rows.length} rows`);
        }
      }
      void constraints;
      return problems;
    },
    scarcityHint:
      'give the spec read tools that reach more tables (a description must be resolvable through them), or use a DB with more rows',
  };
}

/** The tables a pick's goal must describe to the user at fuzz level 2 (rows the user refers to). */
function describedTables(pick: Picked): string[] {
  if (pick.type === 'info') return [pick.table.name];
  const parents = Object.values(pick.plan.roles).flatMap((r) => (r.role === 'parent' ? [r.parent] : []));
  return [...new Set([...(pick.plan.op === 'insert' ? [] : [pick.plan.table.name]), ...parents])];
}

/**
 * When every pick needs a table no description of which the read tools can route, those tables (so a draw at
 * fuzz level 2 can never succeed); `undefined` when some pick can be drawn.
 */
function undescribableTables(picks: readonly Picked[], reach: ToolReach): string[] | undefined {
  if (picks.length === 0) return undefined;
  const blocked = new Set<string>();
  for (const pick of picks) {
    const missing = describedTables(pick).filter((t) => !reach.describable(t));
    if (missing.length === 0) return undefined;
    for (const t of missing) blocked.add(t);
  }
  return [...blocked].sort();
}

function noDescriptionError(tables: readonly string[]): ConfigError {
  const list = tables.join(', ');
  return new ConfigError(
    `no task can be drawn at --fuzz 2: every kind of goal refers to a row of ${list}, and no read tool of the spec ` +
      `can find such a row from a description (a read tool with one parameter compared with a non-key column of ` +
      `the table, e.g. a search by name, or one of a parent table together with a list by the foreign key); ` +
      `add such a read tool to the spec, or use --fuzz 0 (rows named by their key) or --fuzz 1`,
  );
}

function draw(
  rng: Rng,
  base: EnvironmentBase,
  request: DrawRequest,
  picks: readonly Picked[],
  tables: readonly TableInfo[],
  collections: readonly StateCollection[],
  reach: ToolReach,
): TaskDraft | { rejected: string } {
  // a SQL domain's kinds identify no customer (their policies need no identification): a pin cannot be honoured
  if (request.userId !== undefined && request.userId !== SQL_USER)
    return {
      rejected: `the tasks of a SQL domain are about no particular customer (asked for ${request.userId})`,
    };
  if (picks.length === 0) return { rejected: 'the spec has no tool the synthesis can drive' };
  const episode = base.fork({ semantics: request.semantics });
  try {
    const constraints: TaskDraft['constraints'][number][] = [];
    const goals: SqlGoal[] = [];
    const hidden = new Set<string>();
    const communicate: string[] = [];
    const strategies: string[][] = [];
    const touched = new Set<string>();
    // no hidden id may appear in any request text, nor an answer the agent must find in the requests
    const clashes = (text: string, newHidden: readonly string[], answer?: string): string | undefined => {
      // the oracle acts on a goal once its words are said: two goals in the same words (or one inside the
      // other's) would be taken for one another
      const core = (t: string) => t.toLowerCase().replace(/\.$/, '');
      const same = goals.find((g) => core(g.text).includes(core(text)) || core(text).includes(core(g.text)));
      if (same !== undefined) return `two goals would be asked for in the same words (${same.constraint})`;
      const texts = [...goals.map((g) => g.text), text].map((t) => t.toLowerCase());
      const ids = [...hidden, ...newHidden];
      const leaked = ids.find((h) => texts.some((t) => t.includes(h.toLowerCase())));
      if (leaked !== undefined) return `a request would mention hidden id ${leaked}`;
      const answers = [...communicate, ...(answer === undefined ? [] : [answer])].map((a) => a.toLowerCase());
      const told = answers.find((a) => texts.some((t) => t.includes(a)));
      return told === undefined ? undefined : `a request would state the answer ${told}`;
    };
    const slot = (id: string, pick: Picked): { rejected: string; fatal?: true } | undefined => {
      const fuzzy = () => request.fuzzLevel === 2 || (request.fuzzLevel === 1 && rng.chance(0.5));
      if (pick.type === 'info') {
        const made = infoGoal(rng, episode, pick, tables, fuzzy(), base.sql, reach);
        if ('rejected' in made) return made;
        const clash = clashes(made.text, made.hidden, String(made.args.value));
        if (clash !== undefined) return { rejected: clash };
        constraints.push({ id, kind: `info_${pick.template.json.name}`, args: made.args });
        goals.push({
          constraint: id,
          kind: `info_${pick.template.json.name}`,
          text: made.text,
          references: [made.ref],
        });
        for (const h of made.hidden) hidden.add(h);
        communicate.push(String(made.args.value));
        strategies.push([`${pick.table.name}:${made.ref.clauses.length === 0 ? 'id' : 'description'}`]);
        return undefined;
      }
      const probe = (name: string, args: Record<string, unknown>) => {
        const fork = base.fork({ semantics: request.semantics });
        try {
          return !fork.call(name, toPyValue(args)).error;
        } finally {
          fork.close();
        }
      };
      const rule = pick.type === 'refusal' ? { rule: pick.rule, probe } : undefined;
      const forbidding = pick.type === 'write' ? pick.rules : [];
      const call = drawCall(rng, episode, pick.plan, tables, base.sql, fuzzy, reach, rule, forbidding);
      if ('rejected' in call) return call;
      const clash = clashes(call.text, call.hidden);
      if (clash !== undefined) return { rejected: clash };
      if (pick.type === 'write') {
        const result = episode.call(pick.plan.template.json.name, toPyValue(call.args));
        if (result.error) return { rejected: `${pick.plan.template.json.name} fails: ${result.content}` };
        if (result.changed.length === 0)
          return { rejected: `${pick.plan.template.json.name} changes nothing` };
        const expect: Expected[] = [];
        for (const ref of result.changed) {
          const k = `${ref.collection}\u0000${ref.key}`;
          if (touched.has(k))
            return { rejected: `two goals change ${ref.collection} ${ref.key}`, fatal: true };
          touched.add(k);
          const row = dumpOf(collections, episode, ref.collection, ref.key);
          if (JSON.stringify(row) === JSON.stringify(dumpOf(collections, base, ref.collection, ref.key)))
            return {
              rejected: `${pick.plan.template.json.name} leaves ${ref.collection} ${ref.key} as it was`,
              fatal: true,
            };
          expect.push({ collection: ref.collection, key: ref.key, row });
        }
        constraints.push({ id, kind: pick.plan.template.json.name, args: { call: call.args, expect } });
      } else {
        const key =
          call.args[Object.keys(pick.plan.roles).find((p) => pick.plan.roles[p]?.role === 'key') as string];
        if (touched.has(`${pick.plan.table.name}\u0000${String(key)}`))
          return { rejected: 'a refusal concerns an entity another goal changes' };
        constraints.push({
          id,
          kind: `refuse_${pick.rule.name}`,
          args: { call: call.args, entity_key: key },
        });
      }
      goals.push({
        constraint: id,
        kind: constraints[constraints.length - 1]?.kind as string,
        text: call.text,
        references: call.references,
      });
      for (const h of call.hidden) hidden.add(h);
      strategies.push(
        call.references.map((r) => `${r.table}:${r.clauses.length === 0 ? 'id' : 'description'}`),
      );
      return undefined;
    };
    // a category first (write, refusal, information), then a kind of it: many lookup tools must not drown the writes
    const groups = (['write', 'refusal', 'info'] as const)
      .map((type) => picks.filter((p) => p.type === type))
      .filter((g) => g.length > 0);
    for (let i = 0; i < request.k; i++) {
      const id = `c${i + 1}`;
      let pick = rng.pick(rng.pick(groups));
      for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
        // a kind that keeps failing on this DB gives way to another after a few tries
        if (attempt > 0 && attempt % 4 === 0) pick = rng.pick(rng.pick(groups));
        const made = slot(id, pick);
        if (made === undefined) break;
        // a rejection after the call ran leaves the draft's copy changed: the whole draft is redrawn
        if (made.fatal === true || attempt === SLOT_ATTEMPTS - 1) return { rejected: made.rejected };
      }
    }
    const reason = goals.map((g) => g.text).join(' ');
    const told = communicate.find((v) => reason.toLowerCase().includes(v.toLowerCase()));
    if (told !== undefined) return { rejected: `the request already states the answer ${told}` };
    const fuzz: SqlFuzz = { hidden_ids: [...hidden], goals };
    const persona = rng.pick(PERSONAS);
    return {
      behaviour: { persona, knowledge: [], events: [] },
      persona: personaText(persona),
      userId: SQL_USER,
      constraints,
      fuzz: fuzz as unknown as Readonly<Record<string, unknown>>,
      instructions: {
        domain: base.spec.name,
        reason_for_call: reason,
        known_info: 'You know things only as described here, never by their ids.',
        unknown_info: null,
        task_instructions:
          "Ask for one or two things at a time and answer the agent's questions from these descriptions. Once everything is done, end the conversation.",
      },
      strategies,
      userStrategy: 'user:none',
      hiddenIds: [...hidden],
      communicate,
    };
  } finally {
    episode.close();
  }
}
