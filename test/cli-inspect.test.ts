// shelf, list and query: the app's meaning through the domain layer, read-only connections that
// leave the file and its directory as they were, JSON with exact 64-bit integers, RFC 4180 CSV,
// secrets masked, writes refused with a typed error, exit codes 0 / 1 / 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from 'legado-store';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';
import { buildStore, SECRET_CONFIG, SECRET_COOKIE } from './helpers/inspect-fixture.js';

const dir = tempDir('legado-inspect-');
const db62 = join(dir, 'store62.db');
const db49 = join(dir, 'store49.db');
buildStore(db62, 62);
buildStore(db49, 49);
const INT64_MIN = '-9223372036854775808';

/** Runs a read command and checks it left the file, and the files beside it, exactly as they were. */
async function readOnly(path: string, ...args: string[]) {
  const before = snapshot(path);
  const files = readdirSync(dir).sort();
  // A query runs here without a time limit (no child process to stop): the limit, which runs the
  // query in a child, has its own suite (cli-query-bounds) and the default is used further down.
  const r = await cli(...(args[0] === 'query' ? ['query', '--timeout=0', ...args.slice(1)] : args));
  assert.deepEqual(snapshot(path), before, `${args.join(' ')} changed ${path}`);
  assert.deepEqual(readdirSync(dir).sort(), files, `${args.join(' ')} left files beside the store`);
  return r;
}

/** RFC 4180 records (quoted fields with "" for a quote, CRLF between records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (field += c), i++;
    } else if (c === '"') (quoted = true), i++;
    else if (c === ',') row.push(field), (field = ''), i++;
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), (i += 2);
    else {
      assert.notEqual(c, '\n', 'a bare LF outside quotes');
      (field += c), i++;
    }
  }
  assert.equal(field, '', 'the last record ends with CRLF');
  return rows;
}

test('shelf: the visible tabs in order, each with its books in the tab order, progress and latest chapter', async () => {
  const r = await readOnly(db62, 'shelf', db62, '--json');
  assert.equal(r.code, 0, r.stderr);
  const tabs = JSON.parse(r.stdout) as {
    name: string;
    groupId: number | string;
    sort: number;
    books: { name: string; chapter: number; totalChapters: number; unread: number; groups: string[]; latestChapterTitle: string }[];
  }[];
  const names = tabs.map((t) => t.name);
  // 全部 first (order -10), 本地 and 音频 hidden (no such books), user groups in creation order, 网络未分组 (an ungrouped net book).
  assert.equal(names[0], '全部');
  assert.ok(!names.includes('本地') && !names.includes('音频'));
  assert.ok(names.includes('网络未分组'));
  assert.deepEqual(
    names.filter((n) => n === '科幻' || n === '武侠'),
    ['科幻', '武侠'],
  );
  const all = tabs[0]!;
  // 全部 by last read (durChapterTime desc).
  assert.deepEqual(
    all.books.map((b) => b.name),
    ['未分组的书, "引号"', '三体', '笑傲江湖', '球状闪电'],
  );
  const santi = all.books.find((b) => b.name === '三体')!;
  assert.deepEqual([santi.chapter, santi.totalChapters, santi.unread, santi.latestChapterTitle], [12, 36, 24, '第三十六章']);
  assert.deepEqual(all.books.find((b) => b.name === '球状闪电')!.groups, ['科幻', '组64']);
  // 科幻 has its own order: by name.
  const scifi = tabs.find((t) => t.name === '科幻')!;
  assert.equal(scifi.sort, 2);
  // The 64th group's id is -2^63, printed exactly.
  assert.match(r.stdout, new RegExp(`"groupId": ${INT64_MIN}\\b`));
});

test('shelf --group NAME: one tab by name (a hidden one too); unknown name is a typed error, exit 1', async () => {
  let r = await readOnly(db62, 'shelf', db62, '--group', '组64', '--json');
  assert.equal(r.code, 0, r.stderr);
  const [tab] = JSON.parse(r.stdout) as { name: string; books: { name: string }[] }[];
  assert.deepEqual(
    tab!.books.map((b) => b.name),
    ['球状闪电'],
  );
  r = await readOnly(db62, 'shelf', db62, '--group', '科幻');
  assert.equal(r.code, 0);
  // By name, Chinese-aware (pinyin): 球 (qiu) before 三 (san).
  assert.match(
    r.stdout,
    /^科幻 \(2 books, by name\)\n  球状闪电 \/ 刘慈欣  \[科幻, 组64\]\n      read 1\/20 序章 \(19 unread\); latest: 第二十章\n  三体 \/ 刘慈欣  \[科幻\]\n/,
  );
  r = await readOnly(db62, 'shelf', db62, '--group', '言情');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_GROUP: no book group named "言情"/);
  assert.equal(r.stdout, '');
  r = await cli('shelf', db62, '--sort', '7');
  assert.equal(r.code, 2);
});

test('shelf at schema 49: the v49 meaning (no bookSort, type 0 text)', async () => {
  const r = await readOnly(db49, 'shelf', db49, '--json');
  assert.equal(r.code, 0, r.stderr);
  const tabs = JSON.parse(r.stdout) as { name: string; sort: number; books: unknown[] }[];
  assert.equal(tabs[0]!.name, '全部');
  assert.equal(tabs[0]!.books.length, 4);
  assert.equal(tabs.find((t) => t.name === '科幻')!.sort, 0, 'no own order at 49: the global one');
  assert.ok(
    tabs.some((t) => t.name === '未分组'),
    'the v49 name of the -4 tab',
  );
});

test('list --json: valid JSON, API types (booleans, exact 64-bit masks), filters, order, limit, fields', async () => {
  let r = await readOnly(db62, 'list', db62, 'books', '--json', '--fields', 'name,group,canUpdate', '--order', 'durChapterTime:desc');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as { name: string; group: number; canUpdate: boolean }[];
  assert.deepEqual(
    rows.map((b) => b.name),
    ['未分组的书, "引号"', '三体', '笑傲江湖', '球状闪电'],
  );
  assert.deepEqual(Object.keys(rows[0]!), ['name', 'group', 'canUpdate']);
  assert.equal(rows[1]!.canUpdate, false);
  // 球状闪电 is in 科幻 (bit 0) and the 64th group (bit 63): -2^63 + 1, which no double holds.
  assert.match(r.stdout, /"group":-9223372036854775807\b/);
  r = await readOnly(db62, 'list', db62, 'books', '--where', 'canUpdate=true', '--where', 'author=刘慈欣', '--json');
  assert.deepEqual(
    (JSON.parse(r.stdout) as { name: string }[]).map((b) => b.name),
    ['球状闪电'],
  );
  r = await readOnly(db62, 'list', db62, 'book_groups', '--where', `groupId=${INT64_MIN}`, '--json', '--fields', 'groupId,groupName');
  assert.equal(r.stdout, `[\n  {"groupId":${INT64_MIN},"groupName":"组64"}\n]\n`);
  r = await readOnly(db62, 'list', db62, 'book_groups', '--where', 'groupId<0', '--order', 'order', '--limit', '2', '--fields', 'groupName');
  assert.equal(r.code, 0);
  assert.deepEqual(r.stdout.trim().split('\n').slice(2), ['全部', '本地']);
  r = await readOnly(db62, 'list', db62, 'book_sources', '--where', 'bookSourceUrl~%qidian%', '--json');
  assert.equal((JSON.parse(r.stdout) as unknown[]).length, 2);
  // replace_rules: field `order` is column sortOrder; both names are accepted.
  assert.equal((await readOnly(db62, 'list', db62, 'replace_rules', '--order', 'sortOrder:desc')).code, 0);
});

test('list at schema 49 uses the fields of that version', async () => {
  const r = await readOnly(db49, 'list', db49, 'book_groups', '--json');
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
  assert.ok(rows.length > 60);
  assert.ok(!('bookSort' in rows[0]!));
  assert.match((await cli('list', db49, 'book_groups', '--fields', 'bookSort')).stderr, /UNKNOWN_FIELD: book_groups: no field bookSort at schema 49/);
  assert.match((await cli('list', db49, 'servers')).stderr, /UNKNOWN_TABLE: no table servers at schema 49/);
});

test('list --csv: RFC 4180 (CRLF, quotes doubled, fields with commas and line breaks quoted), header first', async () => {
  const r = await readOnly(db62, 'list', db62, 'books', '--csv', '--fields', 'name,durChapterTitle,group,canUpdate', '--order', 'name');
  assert.equal(r.code, 0, r.stderr);
  const rows = parseCsv(r.stdout);
  assert.deepEqual(rows[0], ['name', 'durChapterTitle', 'group', 'canUpdate']);
  assert.equal(rows.length, 5);
  assert.ok(rows.slice(1).every((x) => x.length === 4));
  const odd = rows.find((x) => x[0] === '未分组的书, "引号"');
  assert.deepEqual(odd, ['未分组的书, "引号"', '第三章\n换行', '0', 'true']);
  assert.ok(r.stdout.includes('"未分组的书, ""引号"""'));
  assert.ok(rows.some((x) => x[2] === '-9223372036854775807'));
});

test('list masks cookies and server configs unless --show-secrets', async () => {
  let r = await readOnly(db62, 'list', db62, 'cookies', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes('s3cr3t'));
  assert.deepEqual(JSON.parse(r.stdout), [{ url: 'biquge.example', cookie: '***' }]);
  r = await readOnly(db62, 'list', db62, 'servers', '--csv');
  assert.ok(!r.stdout.includes('p4ssw0rd'));
  r = await readOnly(db62, 'list', db62, 'servers');
  assert.ok(!r.stdout.includes('p4ssw0rd') && r.stdout.includes('***'));
  r = await readOnly(db62, 'list', db62, 'cookies', '--json', '--show-secrets');
  assert.equal((JSON.parse(r.stdout) as { cookie: string }[])[0]!.cookie, SECRET_COOKIE);
  r = await readOnly(db62, 'list', db62, 'servers', '--json', '--show-secrets');
  assert.equal((JSON.parse(r.stdout) as { config: string }[])[0]!.config, SECRET_CONFIG);
});

test('list: bad arguments are typed errors (exit 1) or usage errors (exit 2)', async () => {
  let r = await readOnly(db62, 'list', db62, 'books', '--where', 'nope=1');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_FIELD: books: no field nope/);
  r = await readOnly(db62, 'list', db62, 'books', '--where', 'canUpdate=maybe');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /INVALID_ARGUMENT: canUpdate=maybe: canUpdate is a boolean/);
  r = await readOnly(db62, 'list', db62, 'books', '--where', 'justtext');
  assert.match(r.stderr, /INVALID_ARGUMENT/);
  r = await readOnly(db62, 'list', db62, 'nosuch');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_TABLE/);
  assert.equal((await cli('list', db62, 'books', '--json', '--csv')).code, 2);
  assert.equal((await cli('list', db62, 'books', '--limit', 'x')).code, 2);
  assert.equal((await cli('list', db62)).code, 2);
  r = await cli('list', join(dir, 'missing.db'), 'books');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_NOT_FOUND/);
  assert.ok(!existsSync(join(dir, 'missing.db')));
});

test('query: rows of any read-only SQL, JSON with exact integers, CSV, repeated column names kept apart', async () => {
  let r = await readOnly(db62, 'query', db62, 'SELECT name, "group", "group" FROM books WHERE ("group" & 1) != 0 ORDER BY name', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '[\n  {"name":"三体","group":1,"group:2":1},\n  {"name":"球状闪电","group":-9223372036854775807,"group:2":-9223372036854775807}\n]\n');
  r = await readOnly(db62, 'query', db62, "SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z", '--csv');
  assert.equal(r.stdout, 'x,y,z\r\n"a,b","say ""hi""",\r\n');
  r = await readOnly(db62, 'query', db62, 'PRAGMA user_version');
  assert.match(r.stdout, /62/);
  // SQL starting with a comment comes after `--`, or the shell's parser takes it for an option.
  r = await readOnly(
    db62,
    'query',
    db62,
    '--json',
    '--',
    '-- a comment\nWITH t AS (SELECT groupName FROM book_groups WHERE groupId > 0) SELECT count(*) AS n FROM t',
  );
  assert.equal(r.stdout, '[\n  {"n":63}\n]\n', 'the 64th group is negative');
});

test('query refuses anything that writes, with WRITE_REFUSED, and the file is unchanged', async () => {
  for (const sql of [
    'DELETE FROM books',
    'UPDATE book_sources SET enabled = 0',
    "INSERT INTO caches(key, value, deadline) VALUES ('k', 'v', 0) RETURNING key",
    'DROP TABLE books',
    'CREATE TEMP TABLE t(a)',
    "ATTACH 'other.db' AS o",
    'PRAGMA user_version = 1',
    'PRAGMA query_only(0)',
    'PRAGMA journal_mode = DELETE',
    'VACUUM',
    'BEGIN',
  ]) {
    const r = await readOnly(db62, 'query', db62, sql);
    assert.equal(r.code, 1, sql);
    assert.match(r.stderr, /^legado-store: WRITE_REFUSED: refused /, sql);
    assert.equal(r.stdout, '', sql);
  }
  assert.ok(!existsSync(join(process.cwd(), 'other.db')));
  const r = await readOnly(db62, 'query', db62, 'SELEC nothing');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /INVALID_QUERY: .*syntax error/);
  assert.match((await readOnly(db62, 'query', db62, 'SELECT 1; DELETE FROM books')).stderr, /INVALID_QUERY/);
  assert.equal((await cli('query', db62)).code, 2);
});

test('query reads a PRAGMA as SQLite tokenizes it: a comment cannot hide a value or a PRAGMA that changes the connection', async () => {
  for (const sql of [
    'PRAGMA/**/locking_mode=EXCLUSIVE',
    'PRAGMA locking_mode/**/=/**/EXCLUSIVE',
    'PRAGMA -- a comment\nlocking_mode = EXCLUSIVE',
    'pragma main./**/journal_mode=DELETE',
    'PRAGMA "locking_mode"=EXCLUSIVE',
    'PRAGMA user_version/* x */=/* y */7',
    'PRAGMA\fuser_version\v=\t7',
    'EXPLAIN PRAGMA locking_mode=EXCLUSIVE',
    'PRAGMA table_info=books',
    'PRAGMA user_version(7)',
    'PRAGMA table_info(books) x',
  ]) {
    const r = await readOnly(db62, 'query', db62, sql);
    assert.equal(r.code, 1, sql);
    assert.match(r.stderr, /^legado-store: WRITE_REFUSED: refused /, sql);
    assert.equal(r.stdout, '', sql);
  }
  // Reading PRAGMAs with comments and schema names still run.
  let r = await readOnly(db62, 'query', db62, 'PRAGMA/**/main . user_version', '--csv');
  assert.equal(r.stdout, 'user_version\r\n62\r\n');
  r = await readOnly(db62, 'query', db62, 'PRAGMA table_info(/* the table */ "caches")', '--csv');
  assert.equal(r.stdout.split('\r\n')[0], 'cid,name,type,notnull,dflt_value,pk');
  assert.match(r.stdout, /\r\n0,key,TEXT,1,,1\r\n/);
});

test('query: an SQL failure while rows are read is a typed INVALID_QUERY naming it, not UNEXPECTED', async () => {
  for (const [sql, message] of [
    ["SELECT json_extract('not json', '$')", /malformed JSON/],
    ['SELECT abs(-9223372036854775807 - 1)', /integer overflow/],
    ["SELECT CASE WHEN value < 3 THEN value ELSE json('{') END AS v FROM json_each('[1,2,3]')", /malformed JSON/],
  ] as const) {
    for (const format of [[], ['--csv']]) {
      const r = await readOnly(db62, 'query', db62, sql, ...format);
      assert.equal(r.code, 1, sql);
      assert.match(r.stderr, /^legado-store: INVALID_QUERY: "/, sql);
      assert.match(r.stderr, message, sql);
    }
  }
  const r = await readOnly(db62, 'query', db62, "SELECT json_extract('not json', '$')", '--json');
  assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, 'INVALID_QUERY');
});

test('query reads no secret column unless --show-secrets: the attacks of issue 27 reveal nothing, plain columns still read', async () => {
  const secrets = /s3cr3t|p4ssw0rd|SESSION/;
  const refused = async (sql: string, columns: string) => {
    const r = await readOnly(db62, 'query', db62, sql, '--json');
    assert.equal(r.code, 1, `${sql}: ${r.stdout}`);
    const error = (JSON.parse(r.stdout) as { error: { code: string; columns: string[] } }).error;
    assert.equal(error.code, 'SECRET_REFUSED', sql);
    assert.deepEqual(error.columns, [columns], sql);
    assert.ok(!secrets.test(r.stdout + r.stderr), `${sql} printed a secret: ${r.stdout}${r.stderr}`);
    const text = await readOnly(db62, 'query', db62, sql);
    assert.equal(text.code, 1);
    assert.equal(text.stdout, '');
    assert.match(text.stderr, /^legado-store: SECRET_REFUSED: refused .*: it reads (cookies\.cookie|servers\.config), which is secret/);
    assert.ok(!secrets.test(text.stderr), text.stderr);
  };
  // The three attacks: an error message quoting the value, a table function over an aggregate
  // (exit 0 before), and a WHERE clause as an oracle, one character at a time.
  await refused("SELECT json_extract('{}', config) FROM servers", 'servers.config');
  await refused('SELECT value FROM json_each((SELECT json_group_array(config) FROM servers))', 'servers.config');
  for (const guess of ['S', 'x']) await refused(`SELECT count(*) FROM cookies WHERE substr(cookie, 1, 1) = '${guess}'`, 'cookies.cookie');
  for (const sql of [
    'SELECT * FROM cookies',
    'SELECT cookie AS url FROM cookies',
    'SELECT length(cookie) FROM main.cookies',
    'SELECT (SELECT cookie FROM "COOKIES" LIMIT 1) AS c',
    'SELECT bookUrl FROM books UNION ALL SELECT cookie FROM cookies',
    'WITH c AS (SELECT cookie AS v FROM cookies) SELECT v FROM c',
    'SELECT url FROM cookies ORDER BY cookie',
    "SELECT 1 FROM books WHERE EXISTS (SELECT 1 FROM cookies WHERE cookie LIKE 'S%')",
  ]) {
    await refused(sql, 'cookies.cookie');
  }
  await refused("SELECT name FROM servers WHERE json_extract(config, '$.password') GLOB 'p*'", 'servers.config');
  // What does not read a secret still runs: other columns of the secret tables, counts.
  assert.equal((await readOnly(db62, 'query', db62, 'SELECT url FROM cookies', '--json')).stdout, '[\n  {"url":"biquge.example"}\n]\n');
  // An equality lookup opens the b-tree with a seek-only flag: still no secret read.
  assert.equal((await readOnly(db62, 'query', db62, "SELECT url FROM cookies WHERE url = 'biquge.example'", '--csv')).stdout, 'url\r\nbiquge.example\r\n');
  assert.equal((await readOnly(db62, 'query', db62, 'SELECT name FROM servers WHERE id = 1', '--csv')).stdout, 'name\r\n坚果云\r\n');
  assert.equal(
    (await readOnly(db62, 'query', db62, 'SELECT count(*) AS n, max(id) AS id, max(name) AS name FROM servers', '--json')).stdout,
    '[\n  {"n":1,"id":1,"name":"坚果云"}\n]\n',
  );
  assert.equal((await readOnly(db62, 'query', db62, 'EXPLAIN QUERY PLAN SELECT cookie FROM cookies')).code, 0);
  const r = await readOnly(db62, 'query', db62, 'SELECT upper(cookie) AS c FROM cookies', '--json', '--show-secrets');
  assert.equal(r.stdout, `[\n  {"c":"${SECRET_COOKIE.toUpperCase()}"}\n]\n`);
  const all = await readOnly(db62, 'query', db62, 'SELECT value FROM json_each((SELECT json_group_array(config) FROM servers))', '--json', '--show-secrets');
  assert.equal(all.stdout, `[\n  {"value":${JSON.stringify(SECRET_CONFIG)}}\n]\n`);
});

test('read commands on a store another connection has open: they see its WAL rows and do not checkpoint them', async () => {
  const path = join(dir, 'busy.db');
  buildStore(path, 62);
  const other = openStore(path);
  try {
    other.tables.caches.insert({ key: 'in-wal', value: 'x', deadline: 0 });
    const walBefore = snapshot(path);
    assert.notEqual(walBefore['-wal'], null);
    const r = await cli('query', path, "SELECT value FROM caches WHERE key = 'in-wal'", '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '[\n  {"value":"x"}\n]\n');
    assert.equal(snapshot(path).main, walBefore.main, 'the main file was not written');
  } finally {
    other.close();
  }
  const db = openDb(path, { readonly: true });
  assert.equal(db.prepare("SELECT count(*) FROM caches WHERE key = 'in-wal'").pluck().get(), 1);
  db.close();
});

test('every new command has --help with an example (exit 0), and bare usage errors exit 2', async () => {
  for (const cmd of [['shelf'], ['list'], ['query'], ['diff'], ['sources', 'dedupe'], ['sources', 'enable'], ['sources', 'disable'], ['cache', 'purge']]) {
    const r = await cli(...cmd, '--help');
    assert.equal(r.code, 0, cmd.join(' '));
    assert.match(r.stdout, /Example:\n {2}\$ legado-store /, cmd.join(' '));
    assert.equal((await cli(...cmd)).code, 2, `${cmd.join(' ')} without arguments`);
  }
});

test('every command on stores of later versions (63, 71, 75): the fields of that version, exit codes as at 62', async () => {
  for (const version of [63, 71, 75] as const) {
    const path = join(dir, `v${version}.db`);
    buildStore(path, version);
    let r = await readOnly(path, 'shelf', path, '--json');
    assert.equal(r.code, 0, `${version}: ${r.stderr}`);
    assert.equal((JSON.parse(r.stdout) as { books: unknown[] }[])[0]!.books.length, 4);
    r = await readOnly(path, 'list', path, 'books', '--json', '--where', 'author=刘慈欣');
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, 2, `${version}`);
    r = await readOnly(path, 'query', path, 'SELECT cookie FROM cookies', '--csv');
    assert.match(r.stderr, /SECRET_REFUSED: .*cookies\.cookie/);
    assert.equal((await readOnly(path, 'query', path, 'SELECT url FROM cookies', '--csv')).stdout, 'url\r\nbiquge.example\r\n');
    r = await readOnly(path, 'sources', 'dedupe', path, '--json');
    assert.equal((JSON.parse(r.stdout) as { dropped: number }).dropped, 3);
    assert.equal((await readOnly(path, 'diff', path, path)).code, 0);
    assert.equal((await cli('diff', path, db62)).code, 1);
    assert.equal((await cli('cache', 'purge', path)).code, 0);
  }
});
