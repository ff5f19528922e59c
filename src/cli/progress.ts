// A progress bar on the terminal (stderr) for long imports and exports: records, rate, file.
// Nothing is drawn when stderr is not a terminal or when the output is --json.
import cliProgress from 'cli-progress';
import type { CliOut } from './io.js';
import { printable } from './printable.js';

export interface ProgressBar {
  /** Moves the bar: `value` of `total` (bytes or rows), with the records count and the current file. */
  update(value: number, total: number, records: number, file: string): void;
  stop(): void;
}

const NONE: ProgressBar = { update: () => {}, stop: () => {} };

/**
 * `ownsTerminal`: the command stops the bar on every way out, signals included (import-run.ts),
 * so the bar may hide the cursor and turn line wrap off while it draws; `stop()` turns both back.
 * Other commands run in one synchronous step a Ctrl-C ends at once: their bar leaves both alone.
 */
export function progressBar(enabled: boolean, unit: string, stream: CliOut, ownsTerminal = false): ProgressBar {
  if (!enabled || !stream.isTTY) return NONE;
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: `{bar} {percentage}% | {records} ${unit} | {rate} ${unit}/s | {file}`,
      hideCursor: ownsTerminal,
      linewrap: !ownsTerminal,
      clearOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let running = false;
  return {
    update(value, total, records, file) {
      const seconds = (performance.now() - started) / 1000;
      const payload = { records, rate: seconds > 0 ? Math.round(records / seconds) : 0, file: shorten(file) };
      if (!running) {
        bar.start(Math.max(total, 1), value, payload);
        running = true;
      } else {
        bar.setTotal(Math.max(total, 1));
        bar.update(value, payload);
      }
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}

function shorten(name: string): string {
  const file = printable(name);
  return file.length > 40 ? `…${file.slice(-39)}` : file;
}
