// The process's peak RSS, as Linux keeps it (VmHWM), for the harness's per-run peaks and
// bench:import's children. VmHWM belongs to the address space: it starts afresh at exec and
// can be reset (/proc/self/clear_refs), unlike getrusage's maxRSS, which survives exec.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const PROC_STATUS = '/proc/self/status';
const PROC_CLEAR = '/proc/self/clear_refs';

/** Linux's VmHWM in bytes, or undefined where there is none. */
export function vmHwm(): number | undefined {
  if (!existsSync(PROC_STATUS)) return undefined;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(PROC_STATUS, 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
}

let canReset = existsSync(PROC_CLEAR);

/** Sets VmHWM to the current RSS; false where the peak cannot be reset. */
export function resetPeak(): boolean {
  if (!canReset) return false;
  try {
    writeFileSync(PROC_CLEAR, '5');
  } catch {
    canReset = false;
  }
  return canReset;
}
