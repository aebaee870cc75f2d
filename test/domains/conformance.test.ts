import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue, loadDbFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { loadSqlDomain } from '../../src/domains/sql/load-spec.js';
import { readSchema } from '../../src/domains/sql/schema-info.js';
import { synthTools } from '../../src/domains/sql/synth-tools.js';
import { createLibraryDb, libraryBase, libraryDomain } from '../../src/testing/tiny-domain/index.js';
import { domainConformance } from '../helpers/domain-conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const libraryFile = join(dir, 'library.sqlite');
createLibraryDb(libraryFile, { seed: 3, members: 30 });

const retailSandbox = generateRetailSandbox({ seed: 4, users: 120, orders: 240 });
domainConformance({
  domain: retailDomain,
  makeBase: () => baseFromValue(retailDomain, retailSandbox, 'sandbox').base,
});
domainConformance({ domain: libraryDomain, makeBase: () => libraryBase(libraryFile), difficulty: 'medium' });
domainConformance({
  domain: airlineDomain,
  makeBase: () => loadDbFile(airlineDomain, join(__dirname, '../../../shared/tau2/airline/db.json')).base,
});

// a SQL domain: the toolset `cove synth tools` derives from Chinook, loaded from its spec
const chinookFile = join(__dirname, '../../../shared/sql/chinook/Chinook_Sqlite.sqlite');
const chinookDb = new Database(chinookFile, { readonly: true });
const chinookSpec = synthTools(chinookDb, readSchema(chinookDb), {
  name: 'chinook',
  databasePath: chinookFile,
});
chinookDb.close();
writeFileSync(join(dir, 'chinook.json'), JSON.stringify(chinookSpec.spec));
const chinook = loadSqlDomain(join(dir, 'chinook.json'));
domainConformance({
  domain: chinook.domain,
  makeBase: () => (chinook.domain.files as NonNullable<typeof chinook.domain.files>).openBase(chinook.dbFile),
});
