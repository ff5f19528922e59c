// A source's check that ran past its time limit (the app's withTimeout in CheckSourceService).
import { LegadoStoreError } from '../../errors.js';
import { printableUrl } from '../../net/errors.js';

export class CheckTimeoutError extends LegadoStoreError {
  constructor(
    readonly sourceName: string,
    readonly sourceUrl: string,
    readonly timeoutMs: number,
  ) {
    super('CHECK_TIMEOUT', `source ${JSON.stringify(sourceName)} (${printableUrl(sourceUrl)}): the check did not end within ${timeoutMs} ms (its time limit)`);
  }
}
