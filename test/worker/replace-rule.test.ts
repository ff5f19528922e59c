// The users' replace rules on the Durable Object (wrangler dev, offline, 127.0.0.1): the app's
// /testReplaceRule finds a regex rule's matches in the QuickJS sandbox, whose interrupt stops a
// rule that backtracks for ever inside its one match. workerd run locally has no CPU limit, so
// without that the runaway would hold the reader's object, and every request to it, for ever.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { envelopeText } from '../helpers/serve.js';
import { basic, startWorker, stateDir, type RunningWorker } from './helpers.js';

let worker: RunningWorker;
const state = stateDir('legado-worker-rules-');

before(async () => {
  worker = await startWorker(['--persist-to', state, '--var', 'LEGADO_USERS:alice:pw-a']);
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const ALICE = basic('alice', 'pw-a');
/** Bounds every request: a runaway that nothing stops fails the test here instead of hanging it. */
const BOUND_MS = 90_000;

const testRule = async (pattern: string, replacement: string, text: string): Promise<string> => {
  const body = JSON.stringify({ rule: { pattern, replacement, isRegex: true }, text });
  const res = await fetch(`${worker.url}testReplaceRule`, {
    method: 'POST',
    body,
    headers: { ...ALICE, 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(BOUND_MS),
  });
  assert.equal(res.status, 200);
  return res.text();
};

test("a good rule gets the app's answer: Java groups, named groups, a Java class, an empty match", async () => {
  // Java's replaceAll, spelled out: $1 the group, ${n} a named group, \p{IsHan} Han characters,
  // `x*` matching empty before each character and at the end.
  assert.equal(await testRule('(a)', '[$1]', 'banana'), envelopeText(true, '', JSON.stringify('b[a]n[a]n[a]')));
  assert.equal(await testRule('(?<n>\\d+)章', '第${n}回', '1章 22章'), envelopeText(true, '', JSON.stringify('第1回 第22回')));
  assert.equal(await testRule('\\p{IsHan}+', '#', '第一章abc末'), envelopeText(true, '', JSON.stringify('#abc#')));
  assert.equal(await testRule('x*', '-', 'ab'), envelopeText(true, '', JSON.stringify('-a-b-')));
});

test('a runaway rule ends at its limit with RULE_TIMEOUT naming it, another request to the same reader is answered, and the next rule works', async () => {
  const runaway = testRule('(a|aa)+c', 'x', `${'a'.repeat(60)}b`);
  // Sent while the runaway runs: the object answers it once the sandbox has stopped the rule.
  await new Promise((r) => setTimeout(r, 300));
  const shelf = fetch(`${worker.url}getBookshelf`, { headers: ALICE, signal: AbortSignal.timeout(BOUND_MS) }).then((r) => r.text());
  // The rule's limit is the app's default timeoutMillisecond, 3,000 ms (the tester sends none).
  assert.equal(await runaway, envelopeText(false, 'replace rule "testReplaceRule" "(a|aa)+c": stopped after its time limit of 3000 ms'));
  assert.equal(await shelf, envelopeText(false, '还没有添加小说'));
  assert.equal(await testRule('b', 'B', 'abc'), envelopeText(true, '', JSON.stringify('aBc')));
});
