import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

/** Writes JSON lines to a file, waiting for the stream to drain whenever its buffer is full (backpressure). */
export class JsonlWriter {
  readonly #out: WriteStream;
  #rows = 0;

  constructor(file: string) {
    // a 1 MB buffer: rows are often larger than the default 16 kB, which would wait for a drain after every row
    this.#out = createWriteStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  }

  async write(value: unknown): Promise<void> {
    this.#rows++;
    if (!this.#out.write(`${JSON.stringify(value)}\n`)) await once(this.#out, 'drain');
  }

  /** Flushes and closes the file; returns the number of lines written. */
  async close(): Promise<number> {
    this.#out.end();
    await once(this.#out, 'finish');
    return this.#rows;
  }
}
