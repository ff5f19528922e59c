// Where the bench tools keep their files: memory (/dev/shm) on Linux, so a run times the engine
// and not the disk's writeback (on a machine whose /tmp is on disk, every round's fresh copies put
// a third of the CPU in I/O wait and the harness's medians 1.5× up); LEGADO_BENCH_DIR chooses.
import { existsSync } from 'node:fs';
import os from 'node:os';

export function benchFiles(): string {
  const chosen = process.env.LEGADO_BENCH_DIR;
  if (chosen) return chosen;
  return os.platform() === 'linux' && existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
}
