import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';

/** Loading state of a JSON request. */
export type Loaded<T> = { state: 'loading' } | { state: 'error'; error: string } | { state: 'ok'; data: T };

/** How often an answer that covers part of a run only (`coverage.complete: false`) is asked again. */
const REFRESH_MS = 1000;

/**
 * Fetches `path?params` whenever the key (the full URL) changes. An answer whose `coverage` says it is partial
 * (the run is still being indexed) is shown and asked again every second until it is complete.
 */
export function useFetch<T>(path: string, params?: URLSearchParams): Loaded<T> {
  const key = `${path}?${params?.toString() ?? ''}`;
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoaded({ state: 'loading' });
    const load = () =>
      getJson<T>(path, params).then(
        (data) => {
          if (!live) return;
          setLoaded({ state: 'ok', data });
          const coverage = (data as { coverage?: { complete?: boolean } }).coverage;
          if (coverage?.complete === false) timer = setTimeout(load, REFRESH_MS);
        },
        (e: Error) => live && setLoaded({ state: 'error', error: e.message }),
      );
    load();
    return () => {
      live = false;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [key]);
  return loaded;
}
