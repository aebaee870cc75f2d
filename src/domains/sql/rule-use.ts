import type { Grounding } from '../../tasks/constraint.js';
import type { TableInfo } from './schema-info.js';
import type { SqlRuleJson } from './spec-schema.js';
import type { SqlTemplate } from './template-tool.js';
import type { WritePlan } from './tool-plans.js';

/** A read template that looks one row of `table` up by its key (see `lookupParam`). */
export interface Lookup {
  readonly template: SqlTemplate;
  readonly param: string;
  readonly table: TableInfo;
}

/**
 * How a rule yields refusal tasks (docs/sql-domains.md, "Constraints, references and verification"): the user
 * asks for the forbidden change to one existing row, and the agent must look that row up (by a read tool that
 * takes its single-column key) before refusing. A rule that cannot — its tool is not one the synthesis drives, it inserts, its table has a composite
 * key, or no read tool looks a row of it up by key — gives the reason instead, for a warning.
 */
export function refusalUse(
  rule: SqlRuleJson,
  plans: readonly WritePlan[],
  lookups: readonly Lookup[],
): { plan: WritePlan; reads: Grounding['lookup'] } | { why: string } {
  const plan = plans.find((p) => p.template.json.name === rule.tool);
  if (plan === undefined)
    return {
      why: `the task synthesis cannot drive ${rule.tool} (each of its parameters must be a column of the one table it writes, and that table needs a primary key)`,
    };
  if (plan.op === 'insert')
    return { why: `${rule.tool} inserts a row: there is no existing row whose change could be refused` };
  const table = plan.table;
  if (table.primaryKey.length !== 1)
    return {
      why: `${rule.tool} writes ${table.name}, whose key has ${table.primaryKey.length} columns (a refusal needs a one-column key)`,
    };
  const reads = lookups
    .filter((l) => l.table.name === table.name)
    .map((l) => ({ tool: l.template.json.name, argument: l.param, constraintArg: 'entity_key' }));
  if (reads.length === 0)
    return {
      why: `no read tool looks up one ${table.name} row by its ${table.primaryKey[0]} alone (add one, e.g. SELECT * FROM ${table.name} WHERE ${table.primaryKey[0]} = :key)`,
    };
  return { plan, reads };
}
