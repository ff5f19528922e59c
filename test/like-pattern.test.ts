// The LIKE evaluated in JavaScript (for engines with a short pattern limit) against SQLite's own
// LIKE on the machine's engine: the same answer for every pattern and text here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { likeMatcher } from '../src/domain/like-pattern.js';
import { likePatternBytes } from '../src/table/like.js';
import { openDb } from './helpers/engine.js';

test('likeMatcher answers as SQLite LIKE: % and _, ASCII-only case folding, regex characters literal', () => {
  const db = openDb(':memory:');
  const sqlite = db.prepare('SELECT ? LIKE ?').pluck();
  const url = 'https://Ex-ample.com/書源/a.b?x=(1)[2]{3}*+|^$\\';
  const patterns = [`v_${url}_%`, 'v_a_%', '%É%', 'ab_', 'a%c', '%', '_', '', 'A.B', '書_'];
  const texts = [
    `v_${url}_k`,
    `vX${url}Y`,
    `v_${url.toLowerCase()}_k`,
    `v_${url}_`,
    `v_${url}`,
    'v_a_',
    'vxay',
    'é',
    'É',
    'abc',
    'ABC',
    'ab',
    'abcd',
    'ac',
    'a\nc',
    'A.B',
    'AxB',
    '書源',
    '書',
    '',
  ];
  for (const p of patterns) {
    const m = likeMatcher(p);
    for (const t of texts) assert.equal(m(t), sqlite.get(t, p) === 1, `${JSON.stringify(t)} LIKE ${JSON.stringify(p)}`);
  }
  db.close();
  assert.equal(likePatternBytes('v_書_%'), 7);
});
