#!/usr/bin/env node
// `npm run bench`: runs the benchmark workloads and prints one JSON object.
import { register } from 'tsx/esm/api';

register();
await import('../bench/main.ts');
