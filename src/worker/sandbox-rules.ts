// The users' replace rules on the Durable Object, stopped inside a match. The object has one
// thread and no worker threads, and a JS regex cannot be interrupted; QuickJS's regex engine
// calls the sandbox's interrupt handler while it backtracks, so the matches are found there (the
// rule translated to a JS RegExp on the host, the project's one translation) and the
// replacement is expanded on the host with the same loop as everywhere else. The object keeps no
// local book files, so only the app's testReplaceRule (a raw job) comes here.
import { UnsupportedError } from '../errors.js';
import type { AsyncRuleRunner } from '../localbook/api.js';
import { RuleTimeoutError } from '../localbook/errors.js';
import { compileGuarded } from '../localbook/regex-guard.js';
import { type ChapterReplace, type ChapterReplaced, type ReplaceRuleRow, REPLACE_LIMIT_MS, replaceMatches, ruleLimit, ruleRef } from '../localbook/replace.js';
import { QuickJsEngine, ScriptTimeoutError } from '../sources/js/index.js';
import type { FoundMatch } from '../text/java-replacement.js';

/**
 * Every match, as `matches()` in localbook/regex-guard.ts finds them (an empty match steps one
 * place on), each as a plain array: [index, whole match, groups..., named groups or null], a
 * group that took no part as null (the copy out is JSON, which drops undefined).
 */
const FIND = `(function () {
  var re = new RegExp(ruleSource, ruleFlags), out = [], m;
  re.lastIndex = 0;
  while ((m = re.exec(ruleText)) !== null) {
    if (m[0].length === 0) re.lastIndex = m.index + 1;
    var row = [m.index], named = null;
    for (var i = 0; i < m.length; i++) row.push(m[i] === undefined ? null : m[i]);
    if (m.groups !== undefined) {
      named = {};
      for (var name in m.groups) named[name] = m.groups[name] === undefined ? null : m.groups[name];
    }
    row.push(named);
    out.push(row);
  }
  return out;
})()`;

/** The sandbox's own key: one sandbox with no jsLib, kept between rules. */
const SOURCE = { key: 'replace-rules', name: 'replace rules' };

/** Heap the finding may use (its matches are copied out whole). */
const MEMORY_BYTES = 32 * 1024 * 1024;

type Row = [number, ...(string | null | Record<string, string | null> | null)[]];

const orUndefined = <T>(x: T | null): T | undefined => (x === null ? undefined : x);

const asMatch = (row: Row): FoundMatch => {
  const named = row[row.length - 1] as Record<string, string | null> | null;
  const found = (row.slice(1, -1) as (string | null)[]).map(orUndefined);
  const groups = named === null ? undefined : Object.fromEntries(Object.entries(named).map(([k, v]) => [k, orUndefined(v)]));
  return Object.assign(found, { index: row[0], groups });
};

let providedWasm: object | undefined;

/** Gives the runners QuickJS's compiled module: the Worker's entry does (worker/build.ts writes it), as workerd compiles no WASM from bytes. */
export function provideQuickJsWasm(module: object): void {
  providedWasm = module;
}

export interface SandboxRulesOptions {
  /** The compiled QuickJS WASM (default: the one provided, else Node and Bun load the file). */
  readonly wasmModule?: object | undefined;
}

/** A rule runner whose regex rules run in a QuickJS sandbox made at the first rule, kept for the next. */
export class SandboxRules implements AsyncRuleRunner {
  private engine: QuickJsEngine | undefined;

  constructor(private readonly options: SandboxRulesOptions = {}) {}

  async parse(): Promise<never> {
    throw new UnsupportedError('local book files', 'Durable Object', 'the worker keeps no book files; add books with `legado-store book add` or the app');
  }

  async replace(job: ChapterReplace): Promise<ChapterReplaced> {
    if (!job.raw) throw new UnsupportedError('local book chapters', 'Durable Object', 'the worker keeps no book files to read chapters from');
    let text = job.text;
    for (const rule of job.rules) text = await this.apply(text, rule, job.maxLimitMs ?? REPLACE_LIMIT_MS);
    return { text, notes: [] };
  }

  dispose(): void {
    this.engine?.dispose();
    this.engine = undefined;
  }

  /** One rule on the text; throws RuleTimeoutError, JavaRegexError, or the sandbox's typed errors. */
  private async apply(text: string, rule: ReplaceRuleRow, maxLimitMs: number): Promise<string> {
    if (!rule.isRegex) return text.split(rule.pattern).join(rule.replacement);
    const rx = compileGuarded(rule.pattern);
    const limitMs = ruleLimit(rule, maxLimitMs);
    this.engine ??= new QuickJsEngine({ lanes: 1, sandboxesPerLane: 1, heapBytes: 2 * MEMORY_BYTES, wasmModule: this.options.wasmModule ?? providedWasm });
    let rows: Row[];
    try {
      const bindings = { ruleSource: rx.regex.source, ruleFlags: rx.regex.flags, ruleText: text };
      const limits = { timeMs: limitMs, wallMs: limitMs, memoryBytes: MEMORY_BYTES };
      rows = (await this.engine.run(FIND, bindings, { source: SOURCE, rule: rule.name, limits })) as Row[];
    } catch (e) {
      if (e instanceof ScriptTimeoutError) throw new RuleTimeoutError(ruleRef(rule), limitMs);
      throw e;
    }
    return replaceMatches(text, rx, rule.replacement, rows.map(asMatch));
  }
}
