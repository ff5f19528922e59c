// Memory per sandbox of the book sources' JavaScript (src/sources/js): sources with a small and a
// larger jsLib are loaded into one lane, then QuickJS's own count per sandbox and the lane's
// linear memory are printed; then 256 and 512 sandboxes without jsLib in one lane, both past the
// linear memory's 16 MiB start: its growth per sandbox between the two is the cost seen from
// outside QuickJS's count (the allocator's included). A measure, no assertion.
//   node dist/bench/sandbox-memory.js
import { QuickJsEngine } from '../src/sources/js/index.js';

const MiB = 1024 * 1024;
const small = 'function t2s(t) { const { java } = this; return java.t2s(t) }';
// A jsLib of the size real ones reach with a bundled helper (about 40 KB of functions).
const large = Array.from({ length: 400 }, (_, i) => `function helper${i}(s) { return String(s).split("").reverse().join("") + ${i} }`).join('\n');

async function measure(label: string, jsLib: string, count: number): Promise<number> {
  const engine = new QuickJsEngine({ lanes: 1, sandboxesPerLane: count });
  const started = performance.now();
  for (let i = 0; i < count; i++) await engine.run('result.length', { result: 'abc' }, { source: { key: `https://s${i}.example`, jsLib } });
  const ms = performance.now() - started;
  const { lanes } = await engine.memory();
  const lane = lanes[0]!;
  const used = lane.sandboxes.map((s) => s.usedBytes);
  const mean = used.reduce((a, b) => a + b, 0) / used.length;
  console.log(
    `${label.padEnd(22)} ${String(count).padStart(3)} sandboxes: ${(mean / 1024).toFixed(0)} KiB each by QuickJS's count, ` +
      `lane linear memory ${(lane.linearBytes / MiB).toFixed(1)} MiB, ${(ms / count).toFixed(2)} ms per new sandbox`,
  );
  engine.dispose();
  return lane.linearBytes;
}

await measure('no jsLib', '', 32);
await measure('small jsLib (60 B)', small, 32);
await measure(`large jsLib (${Math.round(large.length / 1024)} KB)`, large, 32);
const at256 = await measure('no jsLib', '', 256);
const at512 = await measure('no jsLib', '', 512);
console.log(`linear memory grown from 256 to 512 sandboxes: ${((at512 - at256) / 256 / 1024).toFixed(0)} KiB a sandbox`);
