import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared` beside the repository (CI has it too). */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const TAU2 = join(SHARED, 'tau2');
export const RETAIL_DB = join(TAU2, 'retail', 'db.json');
export const RETAIL_TASKS = join(TAU2, 'retail', 'tasks.json');
export const RETAIL_LEGACY_TASKS = join(TAU2, 'legacy_v0.1.0', 'retail', 'tasks.json');
export const GOLDEN = join(TAU2, 'golden');
