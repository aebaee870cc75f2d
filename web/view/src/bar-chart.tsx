import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import type { Bar } from './api.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** Where a bar was drawn, kept on the canvas (`data-bars`) so tests and tools can find each bar. */
interface DrawnBar {
  label: string;
  dataset: string;
  x: number;
  y: number;
}

/**
 * A bar chart (Chart.js) of `bars`: stacked passed / not passed when the bars have pass counts, plain counts
 * otherwise. Clicking a bar calls `onBar` with its filter (plus `passed: yes|no` for a stacked segment).
 */
export function BarChart(props: {
  id: string;
  title: string;
  bars: readonly Bar[];
  horizontal?: boolean;
  onBar: (filter: Record<string, string>) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { bars, onBar } = props;
  useEffect(() => {
    const el = canvas.current;
    if (el === null) return undefined;
    const stacked = bars.some((b) => b.passed !== undefined);
    const datasets = stacked
      ? [
          { label: 'passed', data: bars.map((b) => b.passed ?? 0), backgroundColor: '#2e9d5b' },
          {
            label: 'not passed',
            data: bars.map((b) => b.total - (b.passed ?? 0)),
            backgroundColor: '#d9534f',
          },
        ]
      : [{ label: 'episodes', data: bars.map((b) => b.total), backgroundColor: '#3b72c4' }];
    const chart = new Chart(el, {
      type: 'bar',
      data: { labels: bars.map((b) => b.label), datasets },
      options: {
        animation: false,
        responsive: false,
        indexAxis: props.horizontal === true ? 'y' : 'x',
        plugins: { legend: { display: stacked, position: 'bottom' }, tooltip: { enabled: true } },
        scales: {
          x: { stacked, ticks: { precision: 0 } },
          y: { stacked, ticks: { autoSkip: false, precision: 0 } },
        },
        onHover: (event, elements) => {
          const target = event.native?.target as HTMLElement | undefined;
          if (target !== undefined) target.style.cursor = elements.length > 0 ? 'pointer' : 'default';
        },
        onClick: (_event, elements) => {
          const hit = elements[0];
          if (hit === undefined) return;
          const bar = bars[hit.index];
          if (bar === undefined) return;
          const extra: Record<string, string> = stacked
            ? { passed: hit.datasetIndex === 0 ? 'yes' : 'no' }
            : {};
          onBar({ ...bar.filter, ...extra });
        },
      },
    });
    const drawn: DrawnBar[] = [];
    chart.data.datasets.forEach((d, di) => {
      chart.getDatasetMeta(di).data.forEach((element, i) => {
        const { x, y, base } = element as unknown as { x: number; y: number; base: number };
        const value = Number(d.data[i] ?? 0);
        if (value === 0) return;
        // the middle of the bar segment
        const mid = props.horizontal === true ? { x: (x + base) / 2, y } : { x, y: (y + base) / 2 };
        drawn.push({ label: String(bars[i]?.label), dataset: String(d.label), ...mid });
      });
    });
    el.dataset.bars = JSON.stringify(drawn);
    return () => chart.destroy();
  }, [bars]);
  const height = props.horizontal === true ? Math.max(160, 28 * bars.length + 60) : 240;
  return (
    <figure class="chart" id={`chart-${props.id}`}>
      <figcaption>{props.title}</figcaption>
      {bars.length === 0 ? (
        <p class="muted">nothing to show</p>
      ) : (
        <canvas ref={canvas} width={props.horizontal === true ? 560 : 420} height={height} />
      )}
    </figure>
  );
}
