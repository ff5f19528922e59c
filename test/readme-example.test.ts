// The README's first program runs as written: its code block is taken from README.md, its
// import pointed at this build, and run in a fresh folder holding a backup zip of the app's
// layout. What it prints is checked against the backup's content, and the zip it writes is
// read back as a zip of the app's file names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { unzipSync } from 'fflate';
import { sampleBackup, writeBackupZip } from './helpers/backup-fixtures.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function firstProgram(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /## A first program\n+```ts\n([\s\S]*?)\n```/.exec(readme);
  assert.ok(m, 'README.md has a "A first program" section with a ts code block');
  return m[1]!;
}

test('README: the first program is at most 20 lines and runs as written', async () => {
  const code = firstProgram();
  assert.ok(code.split('\n').length <= 22, `${code.split('\n').length} lines`);
  const dir = mkdtempSync(join(tmpdir(), 'readme-'));
  try {
    const backup = sampleBackup();
    backup['bookshelf.json']![0]!['totalChapterNum'] = 10;
    await writeBackupZip(dir, join(dir, 'backup2024-11-26.zip'), backup);
    const entry = pathToFileURL(join(root, 'dist/src/index.js')).href;
    const js = ts.transpileModule(code.replace(`from 'legado-store'`, `from '${entry}'`), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(dir, 'first.mjs'), js);
    const r = spawnSync(process.execPath, ['first.mjs'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const books = backup['bookshelf.json']!;
    assert.match(r.stdout, /^stored \d+, skipped 0$/m);
    for (const b of books) assert.ok(r.stdout.includes(`${b['name']} (${b['author']}): `), r.stdout);
    // Book One is in group 3 (bits 1 and 2): it shows under 全部 and under the user group.
    assert.match(r.stdout, /^# 全部$/m);
    // Read at chapter index 4 of 10: the app's "read / total" is 5 of 10.
    assert.match(r.stdout, /^Book One \(Author A\): 5 of 10$/m);
    assert.ok(existsSync(join(dir, 'legado.db')));
    const names = Object.keys(unzipSync(readFileSync(join(dir, 'out/backup.zip'))));
    assert.ok(names.includes('bookshelf.json') && names.includes('bookSource.json'), names.join(', '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('README is a front door: at most 350 lines, and every docs/ page it links to exists', () => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const lines = text.split('\n').length;
  assert.ok(lines <= 350, `README.md has ${lines} lines`);
  const links = [...text.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]!);
  assert.ok(links.length >= 5, `README links to ${links.length} docs pages`);
  for (const link of links) assert.ok(existsSync(join(root, link)), `${link} (linked from README.md) exists`);
});
