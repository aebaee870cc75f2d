import { readFileSync } from 'node:fs';

/** cove's version, from package.json. */
export const COVE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
