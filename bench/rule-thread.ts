// What running the users' rules on a worker thread costs (src/node/rule-thread.ts): a TXT split
// with the app's default 目录 rule on this thread against the same split on a rule thread (the
// file read there by its path), and a chapter's replace rules (three regex rules on a 9 KB
// chapter) on this thread against the synchronous and the server's asynchronous rule thread.
// Paired runs, alternating; the table goes to bench/rule-thread-results.md.
// Run: npx tsc -p tsconfig.json && node dist/bench/rule-thread.js [MB] [runs]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inThread } from '../src/localbook/api.js';
import { bookFileAt } from '../src/node/localbook.js';
import { asyncRuleThreads, ruleThreads } from '../src/node/rule-thread.js';
import { benchFiles } from './files.js';
import { DEFAULT_TOC_RULE, writeBigTxt } from './big-txt.js';

const MB = Number(process.argv[2] ?? 20);
const RUNS = Number(process.argv[3] ?? 5);
const READS = 200;
const path = writeBigTxt(mkdtempSync(join(benchFiles(), 'rule-thread-bench-')), MB);
const file = bookFileAt(path);
const options = { tocRules: [{ name: '目录', rule: DEFAULT_TOC_RULE, serialNumber: 1, enable: true }] };
const threads = ruleThreads();
const server = asyncRuleThreads();

const ms = (t: bigint): number => Number(process.hrtime.bigint() - t) / 1e6;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Replace: three regex rules as readers write them, on a chapter of about 9 KB.
const para = '　　他抬起头，看见天边的云慢慢散开，远处传来钟声，城里的人们开始了新的一天。\n';
const chapter = {
  text: para.repeat(80),
  rules: ['(他|她)抬起头', '[，。]{2,}', '钟声\\s*'].map((pattern, k) => ({ name: `r${k}`, pattern, replacement: '$0', isRegex: true })),
};

async function main(): Promise<void> {
  inThread.parse(file, options);
  threads.parse(file, options);
  const rows: string[] = [];
  const here: number[] = [];
  const there: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t = process.hrtime.bigint();
    const a = inThread.parse(file, options).chapters.length;
    here.push(ms(t));
    t = process.hrtime.bigint();
    const b = threads.parse(file, options).chapters.length;
    there.push(ms(t));
    if (a !== b) throw new Error(`chapters differ: ${a} here, ${b} on the thread`);
    rows.push(`| ${i + 1} | ${here[i]!.toFixed(0)} | ${there[i]!.toFixed(0)} | ${(there[i]! / here[i]!).toFixed(2)} |`);
  }
  const per = async (f: () => unknown): Promise<number> => {
    for (let i = 0; i < 20; i++) await f();
    const t = process.hrtime.bigint();
    for (let i = 0; i < READS; i++) await f();
    return ms(t) / READS;
  };
  const replaceHere = await per(() => inThread.replace(chapter));
  const replaceSync = await per(() => threads.replace(chapter));
  const replaceAsync = await per(() => server.replace(chapter));
  await server.close();
  // A thread's start: a new server's runner, its first replace.
  const t = process.hrtime.bigint();
  const fresh = asyncRuleThreads();
  await fresh.replace(chapter);
  const cold = ms(t);
  await fresh.close();
  const report = `# Rule thread benchmark

\`node dist/bench/rule-thread.js ${MB} ${RUNS}\` on Node ${process.version}: a ${(file.size / 1e6).toFixed(1)} MB UTF-8 TXT split with the app's default 目录 rule, on this thread and on a rule thread (paired runs, ms).

| run | this thread | rule thread | ratio |
|---|---|---|---|
${rows.join('\n')}

Median: this thread ${median(here).toFixed(0)} ms, rule thread ${median(there).toFixed(0)} ms (ratio ${(median(there) / median(here)).toFixed(2)}).

A chapter's replace rules (three regex rules, ${chapter.text.length} characters), mean of ${READS}: this thread ${replaceHere.toFixed(3)} ms, rule thread (blocking) ${replaceSync.toFixed(3)} ms, rule thread (server, async) ${replaceAsync.toFixed(3)} ms. A thread's start (a new runner's first replace): ${cold.toFixed(0)} ms.

Load average when run: ${(await import('node:os')).loadavg()[0]!.toFixed(1)} (2 cores shared with other work).
`;
  writeFileSync(fileURLToPath(new URL('../../bench/rule-thread-results.md', import.meta.url)), report);
  process.stdout.write(report);
}
await main();
