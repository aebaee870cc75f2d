import { SingleBar } from 'cli-progress';

/** A progress display: a bar on a terminal, a plain line every few seconds otherwise (logs, CI). */
export interface Progress {
  update(done: number, note?: string): void;
  /** Ends the display; the plain-line form prints a last line with `note` (`done` unless told). */
  stop(note?: string): void;
}

/** Starts a progress display on stderr for `total` units of `label`. */
export function startProgress(label: string, total: number, options: { quiet?: boolean } = {}): Progress {
  if (options.quiet === true) return { update() {}, stop() {} };
  if (process.stderr.isTTY) {
    const bar = new SingleBar({
      format: `${label} [{bar}] {value}/{total} {percentage}% | eta {eta_formatted} | {note}`,
      stream: process.stderr,
      hideCursor: true,
    });
    bar.start(total, 0, { note: '' });
    return {
      update: (done, note = '') => bar.update(done, { note }),
      stop: (note) => {
        if (note !== undefined) bar.update({ note });
        bar.stop();
      },
    };
  }
  const start = Date.now();
  let last = 0;
  let lastDone = 0;
  const print = (done: number, note: string) => {
    const secs = ((Date.now() - start) / 1000).toFixed(1);
    process.stderr.write(`${label}: ${done}/${total} (${secs}s)${note === '' ? '' : ` ${note}`}\n`);
  };
  return {
    update(done, note = '') {
      lastDone = done;
      if (Date.now() - last >= 5000) {
        last = Date.now();
        print(done, note);
      }
    },
    stop(note = 'done') {
      print(lastDone, note);
    },
  };
}
