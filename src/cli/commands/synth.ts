import { basename, dirname, relative, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { readSchema } from '../../domains/sql/schema-info.js';
import { synthTools } from '../../domains/sql/synth-tools.js';
import { readSqliteImage } from '../../env/sql-collections.js';
import { STAGES } from '../../synth/registry.js';
import { intFlag } from '../db-source.js';
import { prepareOutputFile } from '../output-paths.js';
import { registerStageCommands } from './synth-stage.js';

interface SynthToolsFlags {
  db: string;
  tables?: string;
  maxTools: string;
  name?: string;
  out: string;
}

/** `cove synth tools`: derives a SQL domain spec (tools as SQL templates) from a SQLite database's schema. */
export function registerSynth(program: Command): void {
  const synth = program
    .command('synth')
    .description('derive domain material from a database; run model-driven synthesis stages');
  registerStageCommands(synth, STAGES.values(), new Set(['tools']));
  synth
    .command('tools')
    .description('derive SQL-template tools from a SQLite database and write a domain spec (no model needed)')
    .requiredOption('--db <sqlite>', 'SQLite database file (read, never written)')
    .option('--tables <list>', 'comma-separated tables to cover (default: all)')
    .option('--max-tools <n>', 'most tools to keep', '12')
    .option('--name <name>', 'domain name (default: from the file name)')
    .requiredOption('--out <file>', 'spec.json to write')
    .action((flags: SynthToolsFlags) => {
      const maxTools = intFlag('--max-tools', flags.maxTools, 12, 1, 200);
      const image = readSqliteImage(flags.db);
      prepareOutputFile('--out', flags.out);
      const db = new Database(image);
      try {
        const tables = readSchema(db);
        const wanted = flags.tables?.split(',').map((t) => t.trim());
        const unknown = wanted?.filter((t) => !tables.some((x) => x.name === t)) ?? [];
        if (unknown.length > 0)
          throw new ConfigError(
            `--tables: no table ${unknown.map((t) => `'${t}'`).join(', ')} in ${flags.db} (tables: ${tables.map((t) => t.name).join(', ')})`,
          );
        const name =
          flags.name ??
          (basename(flags.db)
            .replace(/\.[^.]*$/, '')
            .toLowerCase()
            .replace(/[^a-z0-9_-]+/g, '_')
            .replace(/^[^a-z]+/, '') ||
            'sql');
        const result = synthTools(db, tables, {
          name,
          maxTools,
          databasePath: relative(dirname(resolve(flags.out)), resolve(flags.db)),
          ...(wanted === undefined ? {} : { tables: wanted }),
        });
        if (result.spec.tools.length === 0)
          throw new ConfigError(`no tool could be derived from ${flags.db}`);
        writeFileAtomic(flags.out, `${JSON.stringify(result.spec, null, 2)}\n`);
        for (const d of result.dropped) process.stderr.write(`dropped ${d.tool}: ${d.reason}\n`);
        process.stderr.write(`wrote ${flags.out}: ${result.spec.tools.map((t) => t.name).join(', ')}\n`);
      } finally {
        db.close();
      }
    });
}
