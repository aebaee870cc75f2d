import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue, loadDbFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
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
