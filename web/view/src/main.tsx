import { render } from 'preact';
import type { SourceInfo } from './api.js';
import { ComparePage, PairPage } from './compare.js';
import { EpisodePage } from './episode.js';
import { ListPage } from './list.js';
import { OverviewPage } from './overview.js';
import { href, useRoute } from './route.js';
import './style.css';
import './episode.css';
import { useFetch } from './use-fetch.js';

function App() {
  const route = useRoute();
  const sources = useFetch<SourceInfo[]>('/api/sources');
  if (sources.state === 'loading') return <p class="muted">loading…</p>;
  if (sources.state === 'error')
    return <p class="error">cannot reach the viewer's server: {sources.error}</p>;
  const all = sources.data;
  const src = Math.min(Number(route.params.get('src') ?? 0) || 0, all.length - 1);
  const source = all[src];
  if (source === undefined) return <p class="error">no source</p>;
  const comparing = all.length > 1;
  const tab = (page: string, label: string, params: Record<string, string | number> = {}) => (
    <a class={route.page === page ? 'tab active' : 'tab'} href={href(page, params)}>
      {label}
    </a>
  );
  let body = null;
  if (route.page === 'list') body = <ListPage source={source} route={route} key={src} />;
  else if (route.page === 'episode')
    body = <EpisodePage src={src} line={Number(route.params.get('line') ?? 0)} />;
  else if (route.page === 'compare' && comparing) body = <ComparePage sources={all} route={route} />;
  else if (route.page === 'pair' && comparing) body = <PairPage sources={all} route={route} />;
  else body = <OverviewPage source={source} key={src} />;
  return (
    <>
      <header>
        <span class="brand">cove view</span>
        {comparing &&
          all.map((s) => (
            <a
              class={s.index === src ? 'tab active' : 'tab'}
              href={href(route.page === 'list' ? 'list' : 'overview', { src: s.index })}
              key={s.index}
            >
              {s.index === 0 ? 'A' : 'B'}: {s.label}
            </a>
          ))}
        {tab('overview', 'Overview', { src })}
        {tab('list', 'Episodes', { src })}
        {comparing && tab('compare', 'Compare A / B')}
        <span class="source-path" title={source.files.join('\n')}>
          {source.path}
        </span>
      </header>
      {source.notes.length > 0 && (
        <ul class="notes">
          {source.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <main>{body}</main>
    </>
  );
}

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
