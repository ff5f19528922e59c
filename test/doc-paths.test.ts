// The docs and the source's comments name files that exist: a path that starts with one of the
// repository's folders (src/, test/, bench/, scripts/, worker/, web/, docs/), or a `.ts` path
// that starts with a folder of src/ (`server/app.ts`), must be a file in the clone. The app's own
// paths (Kotlin, `help/…`) and addresses are not the repository's and are left alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ROOT_FOLDERS = ['src', 'test', 'bench', 'scripts', 'worker', 'web', 'docs'];
const srcFolders = new Set(
  readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name),
);

/** Every file of the clone's own folders, as repository paths (for the `*` patterns). */
const files = ROOT_FOLDERS.flatMap((f) =>
  readdirSync(join(root, f), { recursive: true, encoding: 'utf8' })
    .map((p) => `${f}/${p}`)
    .filter((p) => !p.includes('node_modules')),
);

// A path: not inside a longer word, address or `../x` (nothing path-like before it), one or more
// folders, then a file name with one of the repository's extensions.
const PATH = /(?<![\w./@:~$<>{}-])((?:[\w@*-]+\/)+[\w.*-]+\.(?:ts|js|mjs|md|json|jsonc|sh))(?![\w/])/g;

function globMatches(pattern: string): boolean {
  const source = pattern
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${source}$`);
  return files.some((f) => re.test(f));
}

/** The candidates a path may stand for, or none when it is not one the repository answers for. */
function candidates(path: string, from: string): string[] {
  const first = path.split('/')[0]!;
  // Compiled suites and sources are named `.js` in places; their source is the `.ts`.
  const withTs = (p: string) => (p.endsWith('.js') ? [p, p.slice(0, -3) + '.ts'] : [p]);
  if (ROOT_FOLDERS.includes(first)) return withTs(path);
  if (srcFolders.has(first) && /\.(ts|js)$/.test(path)) return [...withTs(`src/${path}`), ...withTs(join(dirname(from), path))];
  return [];
}

function missing(text: string, from: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH)) {
    const path = m[1]!;
    const options = candidates(path, from);
    if (options.length === 0) continue;
    const found = path.includes('*') ? options.some(globMatches) : options.some((p) => existsSync(join(root, p)));
    if (!found) out.push(path);
  }
  return out;
}

/** The text of every comment in a TypeScript file (read by the compiler's scanner, so strings and regexes are not comments). */
function comments(file: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()].join('\n');
}

test('the path check finds what it is for and leaves the rest alone', () => {
  assert.deepEqual(missing('see `src/server/node.ts` and server/node.ts', 'src/x.ts'), ['src/server/node.ts', 'server/node.ts']);
  assert.deepEqual(missing('src/server/app.ts, server/app.ts, src/server/routes-*.ts, test/**/*.test.ts, dist/test/layers.test.js', 'src/x.ts'), []);
  assert.deepEqual(
    missing('https://github.com/gedoor/legado/blob/master/src/nothing.ts model/analyzeRule/AnalyzeRule.kt help/x.md ../shared/reference/x.md', 'docs/x.md'),
    [],
  );
});

test('CONTRIBUTING.md, README.md and docs/ name files that exist', () => {
  const docs = [
    'CONTRIBUTING.md',
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const wrong = docs.flatMap((doc) => missing(readFileSync(join(root, doc), 'utf8'), doc).map((p) => `${doc}: ${p}`));
  assert.deepEqual(wrong, []);
});

test('the comments in src/ name files that exist', () => {
  const sources = files.filter((f) => f.startsWith('src/') && f.endsWith('.ts'));
  assert.ok(sources.length > 100, `src/ read: ${sources.length} files`);
  const wrong = sources.flatMap((file) => missing(comments(file), file).map((p) => `${file}: ${p}`));
  assert.deepEqual(wrong, []);
});
