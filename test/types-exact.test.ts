// The derived row types under a consumer's strictest settings: test/fixtures/typed-consumer.ts
// compiled against the built package with `exactOptionalPropertyTypes: true` (where row types
// used to collapse to `{}`), and a snippet that must fail so the check itself can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const fixture = fileURLToPath(new URL('../../test/fixtures/typed-consumer.ts', import.meta.url));

function compile(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('row types hold under exactOptionalPropertyTypes, per version, with a bare open narrowed on version', () => {
  assert.deepEqual(compile(fixture), []);
});

test('and a wrong row under the same settings is an error (the check can fail)', () => {
  // Written beside the compiled tests (inside the package, outside the sources the build compiles).
  const bad = fileURLToPath(new URL('./typed-consumer-bad.ts', import.meta.url));
  writeFileSync(
    bad,
    "import { openStore } from 'legado-store';\n" +
      "const s = openStore(':memory:', { schema: 62 });\n" +
      "s.tables.book_sources.insert({ bookSourceUrl: 'u', bookSourceName: 'n', bookSourceType: 0, lastUpdateTime: 0, respondTime: 0, weight: 0, jsLib: 'x' });\n" +
      "const a = openStore(':memory:');\n" +
      'a.tables.dictRules.all;\n',
  );
  const errors = compile(bad);
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0]!, /'jsLib' does not exist/);
  assert.match(errors[1]!, /Property 'dictRules' does not exist/);
});
