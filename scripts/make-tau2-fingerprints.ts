/**
 * Regenerates `src/domains/retail/sandbox/tau2-fingerprints.ts` from τ²'s retail db.json:
 *
 *   npx tsx scripts/make-tau2-fingerprints.ts <tau2 data>/retail/db.json
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from '../src/domains/load-db.js';
import { fingerprintModuleText, tau2Fingerprints } from '../src/domains/retail/sandbox/fingerprints.js';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: npx tsx scripts/make-tau2-fingerprints.ts <tau2 retail db.json>\n');
  process.exit(2);
}
const fingerprints = tau2Fingerprints(readJsonFile(file), file);
const out = fileURLToPath(new URL('../src/domains/retail/sandbox/tau2-fingerprints.ts', import.meta.url));
writeFileSync(out, fingerprintModuleText(fingerprints));
process.stderr.write(`wrote ${fingerprints.length} fingerprints to ${out}\n`);
