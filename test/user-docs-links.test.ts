// The documents a user reads (README.md, docs/) point only at what a clone holds or at public
// addresses: ../shared (the test corpora and reference notes beside the repository on the
// project's machines) is not in a clone. Contributors' notes may name it, saying so.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const userDocs = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('no user document names ../shared or links outside the repository', () => {
  assert.ok(userDocs.length > 10, 'docs/ read');
  for (const doc of userDocs) {
    const text = readFileSync(join(root, doc), 'utf8');
    assert.doesNotMatch(text, /\.\.\/shared\b|\/work\/shared/, `${doc} points into ../shared`);
    // Relative link targets, [text](target), resolved from the document's folder.
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.split('#')[0]!;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      const rel = relative(root, resolve(dirname(join(root, doc)), target));
      assert.ok(!rel.startsWith('..'), `${doc} links to ${target}, outside the repository`);
    }
  }
});

test('CONTRIBUTING.md says ../shared is not in a clone', () => {
  assert.match(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'), /`\.\.\/shared`[^.]*a clone does not have it/);
});
