// Split benchmark: a 50 MB TXT (GBK-free UTF-8 Chinese, headings every ~6 KB, made here) split
// with the app's default 目录 rule, against reading and decoding the same file in the same
// 512,000-byte blocks. Paired runs, alternating; the ratio goes to bench/split-results.md.
// Run: npx tsc -p tsconfig.json && node dist/bench/split.js [MB] [runs]
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bookFileAt } from '../src/node/localbook.js';
import { txtFormat } from '../src/localbook/txt/index.js';
import { benchFiles } from './files.js';
import { DEFAULT_TOC_RULE, writeBigTxt } from './big-txt.js';

const MB = Number(process.argv[2] ?? 50);
const RUNS = Number(process.argv[3] ?? 5);
const RULE = DEFAULT_TOC_RULE;
const dir = mkdtempSync(join(benchFiles(), 'split-bench-'));
const path = writeBigTxt(dir, MB);
const file = bookFileAt(path);

function readDecode(): number {
  const d = new TextDecoder('utf-8');
  let n = 0;
  for (let at = 0; at < file.size; at += 512000) n += d.decode(file.read(at, at + 512000)).length;
  return n;
}
function split(): number {
  return txtFormat.parse(file, { tocRules: [{ name: '目录', rule: RULE, serialNumber: 1, enable: true }] }).chapters.length;
}
const time = (f: () => number): number => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
split();
readDecode();
const ratios: number[] = [];
const rows: string[] = [];
for (let i = 0; i < RUNS; i++) {
  const a = time(readDecode);
  const b = time(split);
  ratios.push(b / a);
  rows.push(`| ${i + 1} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)} |`);
}
ratios.sort((x, y) => x - y);
const median = ratios[Math.floor(ratios.length / 2)]!;
const chapters = split();
const heap = process.memoryUsage().heapUsed / 1e6;
const report = `# Split benchmark\n\n\`node dist/bench/split.js ${MB} ${RUNS}\` on Node ${process.version}: a ${(file.size / 1e6).toFixed(1)} MB UTF-8 TXT, ${chapters} chapters, split with the app's default 目录 rule, against reading and decoding it in 512,000-byte blocks (paired runs).\n\n| run | read + decode ms | split ms | ratio |\n|---|---|---|---|\n${rows.join('\n')}\n\nMedian ratio **${median.toFixed(2)}x** (range ${ratios[0]!.toFixed(2)}-${ratios[ratios.length - 1]!.toFixed(2)}); target < 2x. Heap after: ${heap.toFixed(0)} MB.\n`;
writeFileSync(fileURLToPath(new URL('../../bench/split-results.md', import.meta.url)), report);
process.stdout.write(report);
rmSync(dir, { recursive: true, force: true });
