/**
 * Regenerates a domain's committed τ² fingerprints from τ²'s db.json (the domain is told by the DB's keys):
 *
 *   npx tsx scripts/make-tau2-fingerprints.ts <tau2 data>/retail/db.json
 *   npx tsx scripts/make-tau2-fingerprints.ts <tau2 data>/airline/db.json
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isPyDict } from '../src/core/py-value.js';
import {
  airlineFingerprintModuleText,
  tau2AirlineFingerprints,
} from '../src/domains/airline/sandbox/fingerprints.js';
import { readJsonFile } from '../src/domains/load-db.js';
import { fingerprintModuleText, tau2Fingerprints } from '../src/domains/retail/sandbox/fingerprints.js';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: npx tsx scripts/make-tau2-fingerprints.ts <tau2 retail or airline db.json>\n');
  process.exit(2);
}
const value = readJsonFile(file);
const airline = isPyDict(value) && value.has('flights');
const fingerprints = airline ? tau2AirlineFingerprints(value, file) : tau2Fingerprints(value, file);
const text = airline ? airlineFingerprintModuleText(fingerprints) : fingerprintModuleText(fingerprints);
const domain = airline ? 'airline' : 'retail';
const out = fileURLToPath(new URL(`../src/domains/${domain}/sandbox/tau2-fingerprints.ts`, import.meta.url));
writeFileSync(out, text);
process.stderr.write(`wrote ${fingerprints.length} fingerprints to ${out}\n`);
