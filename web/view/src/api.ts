import type { CompareRow, CompareStatus } from '../../../src/view/compare.js';
import type { EpisodeFacts, MalformedLine } from '../../../src/view/facts.js';
import type { Overview } from '../../../src/view/overview.js';
import type { Coverage, EpisodeDetail, SourceStatus, StateDiffResult } from '../../../src/view/source.js';

export type { Bar, Overview } from '../../../src/view/overview.js';
export type { EntityStateDiff, ViewMessage } from '../../../src/view/source.js';
export type {
  CompareRow,
  CompareStatus,
  Coverage,
  EpisodeDetail,
  EpisodeFacts,
  MalformedLine,
  StateDiffResult,
};

/** A source as `/api/sources` describes it. */
export interface SourceInfo {
  readonly index: number;
  readonly label: string;
  readonly kind: 'run' | 'jsonl' | 'results';
  readonly format: 'cove' | 'tau2';
  readonly path: string;
  readonly files: readonly string[];
  readonly notes: readonly string[];
  readonly status: SourceStatus;
}

export type OverviewResponse = Overview & { readonly status: SourceStatus; readonly coverage: Coverage };
export type EpisodeRow = EpisodeFacts & { readonly preview: string | null };
export interface EpisodesResponse {
  readonly total: number;
  /** What the answer covers (partial while the file is being indexed). */
  readonly coverage: Coverage;
  readonly malformedCount?: number;
  readonly rows?: readonly EpisodeRow[];
  readonly malformed?: readonly MalformedLine[];
}
export interface CompareResponse {
  readonly counts: Record<CompareStatus, number>;
  /** What the tasks were compared by (see src/view/compare.ts). */
  readonly basis: 'tasks' | 'records';
  /** No task in common, or some shared ids naming different tasks; `null` when nothing to say. */
  readonly note: string | null;
  readonly total: number;
  readonly rows: readonly CompareRow[];
}

/** GETs a JSON API path. @throws {Error} with the server's message on a non-2xx answer. */
export async function getJson<T>(path: string, params?: URLSearchParams): Promise<T> {
  const url = params === undefined || [...params].length === 0 ? path : `${path}?${params.toString()}`;
  const res = await fetch(url);
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body as T;
}
