// Every TXT TOC rule of the app's defaults and of the corpora's rule files compiles or is
// reported. Needs ../shared (fails, not skips, when it is missing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chooseTocRule } from '../../src/localbook/txt/toc-rule.js';
import { compileGuarded } from '../../src/localbook/regex-guard.js';
import { DEFAULT_TXT_TOC_RULES } from '../../src/localbook/txt/default-toc-rules.js';

import { corpora } from './shared.js';

const CORPORA = corpora();

test('every rule in the app defaults and txt-toc-rules compiles or is named in the notes', () => {
  const files = [
    join(CORPORA, 'legado-defaultData', 'txtTocRule.json'),
    ...readdirSync(join(CORPORA, 'txt-toc-rules'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(CORPORA, 'txt-toc-rules', f)),
  ];
  let compiled = 0;
  for (const file of files) {
    const rules = (JSON.parse(readFileSync(file, 'utf8')) as { name: string; rule: string; serialNumber: number }[]).filter((r) => r.rule !== '');
    assert.ok(rules.length > 0, file);
    const notes: string[] = [];
    chooseTocRule(
      rules.map((r) => ({ ...r, enable: true })),
      '第1章 开始\n正文\n',
      notes,
      3000,
    );
    for (const r of rules) {
      let ok = true;
      try {
        compileGuarded(r.rule, { multiline: true });
        compiled++;
      } catch {
        ok = false;
      }
      assert.equal(
        notes.some((n) => n.includes(JSON.stringify(r.name))),
        !ok,
        `${file}: ${r.name}`,
      );
    }
  }
  assert.ok(compiled > 50);
});

test("the default TOC rules a store inserts are the app's defaultData/txtTocRule.json, field for field", () => {
  const app = JSON.parse(readFileSync(join(CORPORA, 'legado-defaultData', 'txtTocRule.json'), 'utf8')) as Record<string, unknown>[];
  const ours = DEFAULT_TXT_TOC_RULES.map((r) => ({ ...r }));
  const fields = (r: Record<string, unknown>) => [r['id'], r['name'], r['rule'], r['example'] ?? null, r['serialNumber'], r['enable']];
  assert.deepEqual(ours.map(fields), app.map(fields));
});
