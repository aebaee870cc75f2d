import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';

/** Loading state of a JSON request. */
export type Loaded<T> = { state: 'loading' } | { state: 'error'; error: string } | { state: 'ok'; data: T };

/** Fetches `path?params` whenever the key (the full URL) changes. */
export function useFetch<T>(path: string, params?: URLSearchParams): Loaded<T> {
  const key = `${path}?${params?.toString() ?? ''}`;
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    getJson<T>(path, params).then(
      (data) => live && setLoaded({ state: 'ok', data }),
      (e: Error) => live && setLoaded({ state: 'error', error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return loaded;
}
