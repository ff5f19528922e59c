// A `java.*` helper (or `source.*`, `cookie.*`, `cache.*`) that failed or cannot run here. Thrown
// on the host, it reaches the script as an exception it may catch; uncaught, the composition
// throws this typed error again with the source and the rule, never with secrets in it.
import type { ErrorCode } from '../../errors.js';
import { type ScriptPlace, SourceScriptError } from '../js/errors.js';

function where(place: ScriptPlace): string {
  const parts = [place.source && `source ${JSON.stringify(place.source)}`, place.rule && `rule ${place.rule}`].filter(Boolean);
  return parts.length ? `${parts.join(', ')}: ` : '';
}

abstract class JavaHelperError extends SourceScriptError {
  constructor(
    code: ErrorCode,
    readonly helper: string,
    readonly reason: string,
    place: ScriptPlace,
  ) {
    super(code, place, `${where(place)}${helper.includes('.') ? helper : `java.${helper}`}: ${reason}`);
  }
  /** The same failure, named with the source and rule it happened in. */
  abstract at(place: ScriptPlace): JavaHelperError;
}

/** A helper given bad input (base64, hex, a key, a charset), or a request that failed (`HELPER_FAILED`). */
export class HelperError extends JavaHelperError {
  constructor(helper: string, reason: string, place: ScriptPlace = {}) {
    super('HELPER_FAILED', helper, reason, place);
  }
  at(place: ScriptPlace): HelperError {
    return new HelperError(this.helper, this.reason, place);
  }
}

/** A helper that needs what a server has not: a browser, a login screen, a device (`HELPER_UNSUPPORTED`). */
export class HelperUnsupportedError extends JavaHelperError {
  constructor(helper: string, reason: string, place: ScriptPlace = {}) {
    super('HELPER_UNSUPPORTED', helper, reason, place);
  }
  at(place: ScriptPlace): HelperUnsupportedError {
    return new HelperUnsupportedError(this.helper, this.reason, place);
  }
}

export type { JavaHelperError };
