// `legado-store sources check` (the app's 校验书源) and `sources debug` (its source debug page).
// The check: every source (or those named), 16 at a time, each within its time limit, its
// verdict written on its row as the app marks it; a progress bar; one line or JSON object per
// source; a summary. Ctrl-C cancels: the checks under way write nothing, the written stay.
import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { UsageError, signalExitCode, SIGNALS } from '../exit.js';
import { openForWrite } from '../open-store.js';
import { progressBar } from '../progress.js';
import { printable } from '../printable.js';
import { toJson } from '../../inspect/format.js';
import { UnknownSourceError } from '../../errors.js';
import type { AnyStore, Store } from '../../store/store.js';
import type { SchemaVersion } from '../../schema/index.js';
import { checkRows, type SourceCheckResult } from '../../sources/checker/batch.js';
import { ALL_STEPS, CHECK_CONCURRENCY, CHECK_KEYWORD, CHECK_TIMEOUT_MS, type CheckSteps } from '../../sources/checker/run.js';
import { checkedRow, writeCheckedRow } from '../../sources/checker/store.js';
import { debugSource } from '../../sources/debug/debug.js';
import { ALLOW_PRIVATE_OPTION, allowPrivateHosts, cliEngine } from '../check-engine.js';

const collect = (v: string, all: string[]) => [...all, v];

function positiveInt(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(value)}`);
  return n;
}

const STEP_NAMES = ['search', 'explore', 'info', 'toc', 'content'] as const;

/** `--steps search,explore,info,toc,content` with the app's settings' rules (CheckSourceConfig). */
export function parseSteps(value: string | undefined): CheckSteps {
  if (value === undefined) return ALL_STEPS;
  const named = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = named.filter((s) => !(STEP_NAMES as readonly string[]).includes(s));
  if (unknown.length) throw new UsageError(`--steps: unknown step ${unknown.map((s) => JSON.stringify(s)).join(', ')} (the steps: ${STEP_NAMES.join(', ')})`);
  const on = (s: (typeof STEP_NAMES)[number]) => named.includes(s);
  const steps: CheckSteps = { search: on('search'), explore: on('explore'), info: on('info'), toc: on('toc'), content: on('content') };
  if (!steps.search && !steps.explore) throw new UsageError('--steps needs search or explore (or both): the other steps read their first hit');
  if (steps.toc && !steps.info) throw new UsageError('--steps: toc needs info (the app checks the TOC of the book it read)');
  if (steps.content && !steps.toc) throw new UsageError("--steps: content needs toc (the chapter read is the TOC's first)");
  return steps;
}

/** The book sources to check, in the app's order (customOrder), or the named ones in the order named. */
function rowsToCheck(store: AnyStore, urls: readonly string[]): Record<string, unknown>[] {
  const table = (store as Store<SchemaVersion>).tables.book_sources;
  if (urls.length === 0) return table.select('ORDER BY customOrder, bookSourceUrl') as unknown as Record<string, unknown>[];
  const missing = urls.filter((u) => !table.has(u));
  if (missing.length) throw new UnknownSourceError('book_sources', missing);
  return [...new Set(urls)].map((u) => table.get(u) as unknown as Record<string, unknown>);
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const errorCode = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};

/** One source as a JSON object. */
function resultJson(r: SourceCheckResult): Record<string, unknown> {
  const out: Record<string, unknown> = { url: r.url, name: r.name, status: r.status };
  if (r.needs) out['tier'] = r.needs.tier;
  if (r.needs?.login) out['login'] = true;
  if (r.skipped) out['skipped'] = r.skipped;
  if (r.verdict) {
    out['message'] = r.verdict.message;
    out['group'] = r.verdict.bookSourceGroup;
    out['comment'] = r.verdict.bookSourceComment;
    out['respondTime'] = r.verdict.respondTime;
  }
  if (r.run) {
    out['elapsedMs'] = r.run.outcome.elapsedMs;
    out['steps'] = r.run.outcome.steps;
    out['found'] = r.run.findings;
  }
  const code = errorCode(r.error);
  if (r.error !== undefined) out['error'] = { ...(code ? { code } : {}), message: r.error instanceof Error ? r.error.message : String(r.error) };
  return out;
}

/** One source as a line: status, time, name and URL, and what failed. */
function resultLine(r: SourceCheckResult): string {
  const who = `${printable(r.name)} (${printable(r.url)})`;
  if (r.status === 'skipped') return `skipped  ${who}: ${printable(r.skipped ?? '')}`;
  if (r.status === 'cancelled') return `cancel   ${who}`;
  const time = seconds(r.run?.outcome.elapsedMs ?? 0).padStart(8);
  if (r.status === 'ok') return `ok ${time}  ${who}${r.verdict?.bookSourceGroup ? `  [${printable(r.verdict.bookSourceGroup)}]` : ''}`;
  return `failed ${time.trimStart()}  ${who}: ${printable(r.verdict?.message ?? '')}  [${printable(r.verdict?.bookSourceGroup ?? '')}]`;
}

function summary(results: readonly SourceCheckResult[], ms: number): string {
  const count = (s: SourceCheckResult['status']) => results.filter((r) => r.status === s).length;
  const groups = new Map<string, number>();
  for (const r of results) {
    if (r.status !== 'failed' || !r.verdict?.message) continue;
    for (const g of (r.verdict.bookSourceGroup ?? '').split(',')) if (g.includes('失效') || g === '校验超时') groups.set(g, (groups.get(g) ?? 0) + 1);
  }
  const parts = [`${count('ok')} passed`, `${count('failed')} failed`, `${count('skipped')} not checked here`];
  if (count('cancelled')) parts.push(`${count('cancelled')} cancelled (nothing written)`);
  const marked = [...groups].map(([g, n]) => `${g} ×${n}`).join(', ');
  return `checked ${results.length} source(s) in ${seconds(ms)}: ${parts.join(', ')}${marked ? `; marked ${marked}` : ''}`;
}

export function registerSourcesCheck(sources: Command, io: CliRun): void {
  sources
    .command('check')
    .description(
      "check book sources as the app's 校验书源 does (search, the first hit's info, TOC and first chapter; explore the same) and mark them on their rows",
    )
    .argument('<store>', 'the store file')
    .option('--keyword <word>', `the search keyword where a source has no ruleSearch.checkKeyWord (default ${CHECK_KEYWORD}, the app's)`)
    .option('--source <url>', 'check this source only (repeatable); default every book source', collect, [])
    .option('--concurrency <n>', `sources checked at a time (default ${CHECK_CONCURRENCY}, the app's)`)
    .option('--timeout <ms>', `time limit of one source's check, in ms (default ${CHECK_TIMEOUT_MS}, the app's 180 s)`)
    .option('--steps <list>', 'the steps to run, comma-separated: search,explore,info,toc,content (default all, as the app)')
    .option('--json', 'one JSON object per source, a line each')
    .option(...ALLOW_PRIVATE_OPTION)
    .addHelpText(
      'after',
      "\nEach source is marked as the app marks it: groups 搜索失效, 发现失效, 搜索目录失效, 搜索正文失效, 发现目录失效, 发现正文失效, 校验超时, js失效, 网站失效, 搜索链接规则为空, 发现规则为空 added or removed, '// Error: …' put in front of its comment, respondTime set; one write per source. A source that needs a browser or Java classes is reported and left as it is. Exit code 1 when a source failed.\n\nExample:\n  $ legado-store sources check legado.db\n  $ legado-store sources check legado.db --source https://www.example.com --keyword 斗破 --json\n",
    )
    .action(
      async (
        storePath: string,
        flags: { keyword?: string; source: string[]; concurrency?: string; timeout?: string; steps?: string; json?: boolean; allowPrivateHosts?: boolean },
      ) => {
        const concurrency = positiveInt('--concurrency', flags.concurrency, CHECK_CONCURRENCY, 256);
        const timeoutMs = positiveInt('--timeout', flags.timeout, CHECK_TIMEOUT_MS, 24 * 3600 * 1000);
        const steps = parseSteps(flags.steps);
        if (flags.keyword !== undefined && flags.keyword.trim() === '') throw new UsageError('--keyword must not be empty');
        const store = openForWrite(storePath);
        const engine = cliEngine(store, { allowPrivateHosts: allowPrivateHosts(flags.allowPrivateHosts, io.env) });
        const cancel = new AbortController();
        let signal: NodeJS.Signals | undefined;
        const onSignal = (s: NodeJS.Signals): void => {
          signal ??= s;
          cancel.abort();
        };
        for (const s of SIGNALS) process.on(s, onSignal);
        const bar = progressBar(!flags.json, 'sources', io.stderr);
        try {
          const rows = rowsToCheck(store, flags.source);
          const started = Date.now();
          let done = 0;
          const results = await checkRows(rows, {
            concurrency,
            timeoutMs,
            steps,
            keyword: flags.keyword ?? CHECK_KEYWORD,
            signal: cancel.signal,
            parse: (row) => engine.parse(row),
            open: (source, s) => engine.open(source, s),
            current: (url) => checkedRow(store as Store<SchemaVersion>, url),
            write: (url, verdict) => void writeCheckedRow(store as Store<SchemaVersion>, url, verdict),
            onResult: (r) => {
              done++;
              bar.update(done, rows.length, done, r.name);
              if (flags.json) io.stdout.write(`${toJson(resultJson(r), false)}\n`);
            },
          });
          bar.stop();
          if (!flags.json) io.stdout.write(`${[...results.map(resultLine), summary(results, Date.now() - started)].join('\n')}\n`);
          if (signal) {
            io.stderr.write(`interrupted: the checks under way wrote nothing; ${results.filter((r) => r.verdict).length} source(s) were marked before\n`);
            io.exitCode = signalExitCode(signal);
          } else if (results.some((r) => r.status === 'failed')) io.exitCode = 1;
        } finally {
          bar.stop();
          for (const s of SIGNALS) process.off(s, onSignal);
          engine.dispose();
          store.close();
        }
      },
    );

  sources
    .command('debug')
    .description("run a book source as the app's source debug page does and print its log lines")
    .argument('<store>', 'the store file')
    .argument('<url>', "the source's bookSourceUrl")
    .argument('<key>', 'a keyword (search), an absolute book URL (info, TOC, first chapter), title::url (explore), ++url (TOC), --url (a chapter)')
    .option('--json', 'the lines as JSON objects ({state, text}; state -1 an error, 1000 the end), a line each')
    .option(...ALLOW_PRIVATE_OPTION)
    .addHelpText(
      'after',
      '\nExit code 1 when the run did not reach its end.\n\nExample:\n  $ legado-store sources debug legado.db https://www.example.com 斗破\n  $ legado-store sources debug legado.db https://www.example.com -- --https://www.example.com/1/2.html\n',
    )
    .action(async (storePath: string, url: string, key: string, flags: { json?: boolean; allowPrivateHosts?: boolean }) => {
      const store = openForWrite(storePath);
      const engine = cliEngine(store, { allowPrivateHosts: allowPrivateHosts(flags.allowPrivateHosts, io.env) });
      try {
        const row = (store as Store<SchemaVersion>).tables.book_sources.get(url);
        if (!row) throw new UnknownSourceError('book_sources', [url]);
        const source = engine.parse(row as unknown as Record<string, unknown>);
        const r = await debugSource(
          (log) => engine.open(source, undefined, log),
          key,
          (line) => io.stdout.write(flags.json ? `${toJson(line, false)}\n` : `${line.text.split('\n').map(printable).join('\n')}\n`),
          { now: Date.now },
        );
        if (!r.ok) io.exitCode = 1;
      } finally {
        engine.dispose();
        store.close();
      }
    });
}
