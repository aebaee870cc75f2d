// Using cove as a library: synthesize five verified Retail tasks on a fresh sandbox, play them with the oracle
// agent and the scripted user, and print each episode's reward. `npm run test:package` runs this very file
// against the packed package. Run it in a project that depends on cove: `node --import tsx use-from-typescript.ts`.
import {
  agentContext,
  getDomain,
  runTaskEpisode,
  sandboxBase,
  scriptedRoles,
  synthesizeTasks,
  type TrajectoryRecord,
} from 'cove';
import { libraryDomain } from 'cove/testing';

const domain = getDomain('retail');
const loaded = sandboxBase(domain, 3, { users: 60, orders: 120 });
const { tasks } = await synthesizeTasks(
  domain,
  loaded.base,
  {
    domain: 'retail',
    seed: 3,
    difficulty: 'mixed',
    fuzz: 2,
    semantics: 'parity',
    db: { path: 'sandbox', canonical_sha256: loaded.hashes.canonical_sha256, benchmark: false },
    coveVersion: 'example',
  },
  5,
);
const context = {
  run: 'example',
  domain,
  base: loaded.base,
  dbSha256: loaded.hashes.canonical_sha256,
  benchmarkData: false,
  seed: 3,
  settings: { semantics: 'parity' as const, text: 'cove' as const, guidelines: 'scripted' },
  agentContext: agentContext(domain, 'cove'),
  roles: scriptedRoles(domain),
  limits: {},
  coveVersion: 'example',
};
const records: TrajectoryRecord[] = [];
for (const task of tasks) {
  const record = await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0);
  records.push(record);
  console.error(`${task.id}: ${record.messages.length} messages, reward ${record.evaluation?.reward}`);
}
loaded.base.close();
console.log(
  JSON.stringify({
    episodes: records.length,
    passed: records.filter((r) => r.verification?.score === 1).length,
    testing: libraryDomain.name,
  }),
);
