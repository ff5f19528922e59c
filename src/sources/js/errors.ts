// A book source's script that failed: it ran too long, spent too much memory, or threw. Each names
// the source and the rule where the caller gave them, and the script's own line where known.
import { type ErrorCode, LegadoStoreError } from '../../errors.js';

export interface ScriptPlace {
  /** The source's name or key. */
  readonly source?: string | undefined;
  /** The rule the script belongs to. */
  readonly rule?: string | undefined;
}

function where(place: ScriptPlace, line?: number): string {
  const parts = [place.source && `source ${JSON.stringify(place.source)}`, place.rule && `rule ${place.rule}`, line !== undefined && `line ${line}`];
  const named = parts.filter(Boolean).join(', ');
  return named ? `${named}: ` : '';
}

/** Base of the script failures (`SCRIPT_TIMEOUT`, `SCRIPT_MEMORY`, `SCRIPT_ERROR`). */
export class SourceScriptError extends LegadoStoreError {
  readonly source: string | undefined;
  readonly rule: string | undefined;
  constructor(code: ErrorCode, place: ScriptPlace, message: string) {
    super(code, message);
    this.source = place.source;
    this.rule = place.rule;
  }
}

/** The script ran past its time (`timeMs` of its own running, or `wallMs` in all). */
export class ScriptTimeoutError extends SourceScriptError {
  readonly limitMs: number;
  constructor(place: ScriptPlace, limitMs: number, what: 'time' | 'wall time') {
    super('SCRIPT_TIMEOUT', place, `${where(place)}script stopped after ${limitMs} ms (${what} limit)`);
    this.limitMs = limitMs;
  }
}

/** The script spent more memory than `memoryBytes`, or recursed past the stack. */
export class ScriptMemoryError extends SourceScriptError {
  readonly limitBytes: number;
  constructor(place: ScriptPlace, limitBytes: number, what: 'memory' | 'stack') {
    const limit = what === 'memory' ? `${Math.round(limitBytes / 1024 / 1024)} MiB memory` : 'stack';
    super('SCRIPT_MEMORY', place, `${where(place)}script stopped: out of ${limit}`);
    this.limitBytes = limitBytes;
  }
}

/** The script threw, or does not parse: its own message, and its line where QuickJS gave one. */
export class ScriptFailedError extends SourceScriptError {
  readonly scriptMessage: string;
  readonly line: number | undefined;
  constructor(place: ScriptPlace, scriptMessage: string, line?: number) {
    super('SCRIPT_ERROR', place, `${where(place, line)}${scriptMessage}`);
    this.scriptMessage = scriptMessage;
    this.line = line;
  }
}
