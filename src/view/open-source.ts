import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { JsonlSource } from './run-source.js';
import type { ViewSource } from './source.js';
import { Tau2ResultsSource } from './tau2-results-source.js';

/**
 * Opens what `cove view` was given: a run folder (holding `trajectories.jsonl` or `run.json`), a trajectories
 * JSONL file, or a τ² results JSON file (`*.json`).
 * @param tau2Data `--tau2-data` or `$COVE_TAU2_DATA`, for the state diffs of τ² results.
 * @throws {ConfigError} when the path does not exist or is a folder that holds no run;
 *   {@link InputFileError} when a `.json` file is not τ² results.
 */
export function openSource(path: string, tau2Data?: string): ViewSource {
  if (!existsSync(path))
    throw new ConfigError(
      `${path} does not exist (give a run folder, a trajectories.jsonl or a τ² results.json)`,
    );
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'trajectories.jsonl')) && !existsSync(join(path, 'run.json'))) {
      const names = readdirSync(path).slice(0, 8).join(', ');
      throw new ConfigError(
        `${path} is not a run folder: it has no trajectories.jsonl or run.json (it holds ${names || 'nothing'})`,
      );
    }
    return new JsonlSource(path);
  }
  if (path.endsWith('.json')) return Tau2ResultsSource.read(path, tau2Data);
  return new JsonlSource(path);
}
