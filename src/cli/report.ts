// Human-readable rendering of a file inspection, shared by info, verify and demo.
import type { FileInspection } from '../store/open.js';

export function renderInspection(r: FileInspection, withRows = true): string {
  const lines = [
    `file:           ${r.path}`,
    `schema version: ${r.version}${r.supported ? '' : ` (not supported as a store; supported: ${r.supportedVersions[0]} to ${r.supportedVersions[r.supportedVersions.length - 1]})`}`,
    `what it is:     ${r.description}`,
    `identity hash:  ${r.identityHash ?? '(none)'}${r.expectedIdentityHash && r.identityHash !== r.expectedIdentityHash ? ` (expected ${r.expectedIdentityHash})` : ''}`,
    `structure:      ${!r.supported ? 'not checked' : r.differences.length === 0 ? `matches schema ${r.version}` : `${r.differences.length} difference(s) from schema ${r.version}`}`,
  ];
  for (const d of r.differences) lines.push(`  - ${d.message}`);
  if (r.checked !== 'none') {
    const what = r.checked === 'deep' ? "integrity_check, foreign_key_check and the app's invariants" : 'quick_check';
    lines.push(`content:        ${r.damage.length === 0 ? `sound (${what})` : `${r.damage.length} problem(s) found by ${what}`}`);
    for (const d of r.damage) lines.push(`  - ${d.message}`);
  }
  if (r.warnings.length) {
    lines.push(`warnings:       ${r.warnings.length} (what the app lives with; not damage)`);
    for (const d of r.warnings) lines.push(`  - ${d.message}`);
  }
  if (!r.supported && r.version > 0)
    lines.push(`import:         legado-store import <store> ${r.path} (carries the tables and columns a store shares with it)`);
  if (r.extraTables.length) lines.push(`other tables:   ${r.extraTables.join(', ')}`);
  const rows = Object.entries(r.rows);
  if (withRows && rows.length) {
    lines.push('rows:');
    const width = Math.max(...rows.map(([n]) => n.length));
    for (const [name, n] of rows) lines.push(`  ${name.padEnd(width)}  ${n}`);
  }
  return lines.join('\n') + '\n';
}
