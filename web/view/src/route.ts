import { useEffect, useState } from 'preact/hooks';

/** A page address inside the hash: `#/<page>?<params>`. */
export interface Route {
  readonly page: string;
  readonly params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const q = text.indexOf('?');
  const page = q < 0 ? text : text.slice(0, q);
  return {
    page: page === '' ? 'overview' : page,
    params: new URLSearchParams(q < 0 ? '' : text.slice(q + 1)),
  };
}

/** The address of a page with parameters (empty values dropped). */
export function href(page: string, params: Record<string, string | number | undefined> = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return `#/${page}${s === '' ? '' : `?${s}`}`;
}

export function go(to: string): void {
  window.location.hash = to.slice(1);
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
