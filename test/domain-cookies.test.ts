// Cookies: get, set merging k=v pairs into the stored text, delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeCookie, parseCookie } from 'legado-store/tools';
import { newStore, raw } from './helpers/domain.js';

test('set merges pairs: new names are appended, known ones replaced in place', () => {
  const s = newStore();
  assert.equal(s.cookies.set('example.org', 'session=abc; theme=dark'), 'session=abc; theme=dark');
  assert.equal(s.cookies.set('example.org', 'theme=light;lang=zh'), 'session=abc; theme=light; lang=zh');
  assert.equal(raw(s, "SELECT cookie FROM cookies WHERE url = 'example.org'"), 'session=abc; theme=light; lang=zh');
  assert.equal(s.cookies.get('example.org'), 'session=abc; theme=light; lang=zh');
  assert.equal(s.cookies.set('example.org', 'token=a=b=='), 'session=abc; theme=light; lang=zh; token=a=b==', 'a value may hold =');
  s.close();
});

test('the first set stores the text as given; get of an unknown site; delete; replace', () => {
  const s = newStore();
  assert.equal(s.cookies.get('nope'), undefined);
  s.cookies.set('a.org', 'x=1;y=2');
  assert.equal(s.cookies.get('a.org'), 'x=1;y=2');
  s.db.prepare("UPDATE cookies SET cookie = '' WHERE url = 'a.org'").run();
  assert.equal(s.cookies.set('a.org', 'z=3'), 'z=3', 'a blank stored cookie is replaced');
  s.cookies.replace('a.org', 'only=this');
  assert.equal(s.cookies.get('a.org'), 'only=this');
  assert.equal(s.cookies.delete('a.org'), true);
  assert.equal(s.cookies.delete('a.org'), false);
  s.close();
});

test('parsing skips pairs without = or with a blank value', () => {
  assert.deepEqual(
    [...parseCookie(' a = 1 ; b; c= ;=d; e=5')],
    [
      ['a', '1'],
      ['e', '5'],
    ],
  );
  assert.equal(mergeCookie('a=1; b=2', 'b=; c=3'), 'a=1; b=2; c=3', 'a blank value does not erase');
});
