// What a source's scripts see, run in the real sandbox: the rule context's methods on `java`,
// `result` as Jsoup elements, Java lists, the Jsoup.parse shim, `source.*`, `cookie.*` and
// `cache.*` writing the keys the app's tables hold, jsLib, and the typed refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { harness, SOURCE } from './helpers/java-harness.js';

const PAGE =
  '<div id="list"><ul><li class="Item"><a href="/b/1">一</a></li><li class="item"><a href="/b/2" title="t2">二</a></li></ul><p>尾 <b>粗</b></p></div>';

test('java.getString/getStringList/getElements/put/get in rules, result as Jsoup elements', async () => {
  const h = harness();
  try {
    const ctx = h.rule(PAGE, 'https://book.example/list');
    assert.equal(await ctx.getString('@js:java.getString("tag.a@text")'), '一\n二');
    assert.equal(
      await ctx.getString('@js:java.getStringList("tag.a@href", null, true).toArray().join(" ")'),
      'https://book.example/b/1 https://book.example/b/2',
    );
    assert.equal(await ctx.getString('@js:var l = java.getStringList("tag.a@text"); l.size() + l.get(1)'), '2二');
    assert.equal(
      await ctx.getString('@js:var e = java.getElements("class.item"); e.size() + ":" + e.text() + ":" + e.get(1).select("a").attr("title")'),
      '2:一 二:t2',
    );
    assert.equal(await ctx.getString('@js:java.getElement("tag.p").get(0).ownText()'), '尾');
    // a list rule's script gets the elements so far as `result` and may give elements back
    const items = await ctx.getElements('tag.li@js:result.filter(function (e) { return e.select("a").attr("href") != "/b/1"; })');
    assert.deepEqual(
      items.map((n) => (n as { name: string }).name),
      ['li'],
    );
    assert.equal(await ctx.getString('tag.li.1@text@js:result + "|" + src.length'), `二|${PAGE.length}`, 'string results and src');
    assert.equal(await ctx.getString('@js:java.put("bid", "42"); java.get("bid")'), '42');
    assert.equal(ctx.variables.get('bid'), '42', 'java.put writes the rule context’s variables');
    assert.equal(await ctx.getString('@js:java.getString("tag.b@text", java.getElements("tag.p").get(0))'), '粗', 'an element given back as content');
    assert.equal(await ctx.getString('@js:baseUrl'), 'https://book.example/list');
  } finally {
    h.dispose();
  }
});

test('org.jsoup.Jsoup.parse, Elements and Element methods', async () => {
  const h = harness();
  try {
    const js = (code: string) => h.bindings.sourceScript(code, { result: PAGE });
    assert.equal(await js('var d = org.jsoup.Jsoup.parse(result); d.select("li a").eachAttr("href").join(",")'), '/b/1,/b/2');
    assert.equal(
      await js(
        'var d = Packages.org.jsoup.Jsoup.parse(result, "https://x.test/d/"); d.selectFirst("a").absUrl("href") + " " + d.select("a").first().attr("abs:href")',
      ),
      'https://x.test/b/1 https://x.test/b/1',
    );
    assert.equal(
      await js('var d = org.jsoup.Jsoup.parse(result); d.select("li").get(0).hasClass("item") + "," + d.getElementsByClass("ITEM").size()'),
      'true,2',
      'classes compared ignoring case, as Jsoup does',
    );
    assert.equal(await js('org.jsoup.Jsoup.parse(result).select("p").html()'), '尾 <b>粗</b>');
    assert.equal(await js('org.jsoup.Jsoup.parse(result).select("p").outerHtml()'), '<p>尾 <b>粗</b></p>');
    assert.equal(
      await js('String(org.jsoup.Jsoup.parse("<table><tr><td>x</td></tr></table>").select("table > tbody > tr").text())'),
      'x',
      'an HTML5 tree, tbody implied',
    );
    assert.equal(
      await js('var e = org.jsoup.Jsoup.parse(result).select("li").get(1); e.children().size() + e.parent().tagName() + e.previousElementSibling().text()'),
      '1ul一',
    );
  } finally {
    h.dispose();
  }
});

test('source.* keeps variables and login state under the app’s cache keys', async () => {
  const h = harness({ java: { deviceId: '0123456789abcdef-more' } });
  const url = SOURCE.bookSourceUrl;
  try {
    const js = (code: string) => h.bindings.sourceScript(code, {}, 'loginUrl');
    assert.equal(
      await js('source.put("token", "t1"); source.get("token") + source.getKey() + source.getTag() + source.bookSourceName'),
      `t1${url}测试源测试源`,
    );
    assert.equal(h.cache.get(`v_${url}_token`), 't1');
    await js('source.setVariable("{\\"a\\":1}")');
    assert.equal(h.cache.get(`sourceVariable_${url}`), '{"a":1}');
    assert.equal(await js('source.getVariable()'), '{"a":1}');
    await js('source.setVariable(null)');
    assert.equal(h.cache.has(`sourceVariable_${url}`), false);
    await js('source.putLoginHeader(JSON.stringify({Authorization: "Bearer abc", Cookie: "sid=1"}))');
    assert.equal(h.cache.get(`loginHeader_${url}`), '{"Authorization":"Bearer abc","Cookie":"sid=1"}');
    assert.deepEqual(h.jarCalls, [`replace ${url}`], 'the Cookie of the login header is merged into the jar (CookieStore.replaceCookie)');
    assert.equal(await js('source.getLoginHeaderMap().get("Authorization")'), 'Bearer abc');
    await js('source.removeLoginHeader()');
    assert.equal(h.cache.has(`loginHeader_${url}`), false);
    assert.deepEqual(h.jarCalls.at(-1), `remove ${url}`);
    // userInfo_<url>: AES/ECB/PKCS5 Base64 under the first 16 characters of the Android ID, as the app stores it
    assert.equal(await js('source.putLoginInfo(JSON.stringify({username: "reader", password: "secret-pass"}))'), true);
    const c = createCipheriv('aes-128-ecb', Buffer.from('0123456789abcdef'), null);
    assert.equal(h.cache.get(`userInfo_${url}`), Buffer.concat([c.update('{"username":"reader","password":"secret-pass"}'), c.final()]).toString('base64'));
    assert.equal(await js('source.getLoginInfoMap().get("username")'), 'reader');
    assert.equal(await js('java.getLoginInfoMap().password.length'), 11, 'java is the source in source-level scripts');
    assert.ok(!h.logs.join('\n').includes('secret-pass'), 'login info is never logged');
    await js('source.removeLoginInfo()');
    assert.equal(await js('source.getLoginInfo()'), null);
    // java.put/get in a source-level script are the source's variables (BaseSource.evalJS: java = source)
    await js('java.put("k", "v")');
    assert.equal(h.cache.get(`v_${url}_k`), 'v');
  } finally {
    h.dispose();
  }
});

test('cookie.* is the jar, cache.* the caches rows and the memory map', async () => {
  const h = harness();
  try {
    const js = (code: string) => h.bindings.sourceScript(code);
    await js('cookie.setCookie("https://m.site.test/", "a=1; b=2")');
    assert.equal(await js('cookie.getKey("https://m.site.test/", "b") + "|" + cookie.getCookie("https://m.site.test/")'), '2|a=1; b=2');
    assert.equal(await js('cookie.cookieToMap("a=1; b = 2;c=").toString()'), '{a=1, b=2}', 'CookieStore.cookieToMap drops blank values');
    await js('cookie.removeCookie("https://m.site.test/")');
    assert.deepEqual(h.jarCalls, ['set https://m.site.test/', 'remove https://m.site.test/']);
    await js('cache.put("k1", "v1"); cache.put("n", 12, 60)');
    assert.equal(h.cache.get('k1'), 'v1');
    assert.equal(await js('cache.get("k1") + cache.getInt("n") + cache.get("missing")'), 'v112null');
    await js('cache.delete("k1")');
    assert.equal(h.cache.has('k1'), false);
    await js('cache.putMemory("m", {a: [1, 2]})');
    assert.deepEqual(await js('cache.getFromMemory("m")'), { a: [1, 2] });
    assert.equal(h.cache.has('m'), false, 'memory values stay out of the store');
  } finally {
    h.dispose();
  }
});

test('helpers that need a browser, files or Java classes are refused with a typed error naming them', async () => {
  const h = harness();
  try {
    const ctx = h.rule('<p>x</p>', 'https://book.example/', { rule: 'ruleContent.content' });
    await assert.rejects(ctx.getString('@js:java.startBrowserAwait("https://book.example/", "验证")'), {
      code: 'HELPER_UNSUPPORTED',
      helper: 'startBrowserAwait',
      source: '测试源',
      rule: 'ruleContent.content',
      message: /^source "测试源", rule ruleContent\.content: java\.startBrowserAwait: needs a browser/,
    });
    await assert.rejects(ctx.getString('@js:java.getVerificationCode("https://book.example/c.jpg")'), { code: 'HELPER_UNSUPPORTED' });
    await assert.rejects(ctx.getString('@js:java.webView(null, baseUrl, "document.body")'), { code: 'HELPER_UNSUPPORTED' });
    await assert.rejects(ctx.getString('@js:java.readTxtFile("a.txt")'), { code: 'HELPER_UNSUPPORTED', message: /files of the app’s cache/ });
    await assert.rejects(ctx.getString('@js:new Packages.java.io.File("/etc/passwd")'), { code: 'HELPER_UNSUPPORTED', helper: 'java.io.File' });
    await assert.rejects(ctx.getString('@js:var imp = JavaImporter(); 1'), { code: 'HELPER_UNSUPPORTED', helper: 'JavaImporter' });
    // java.lang.String is shimmed: the corpus builds GB2312 percent forms with it
    assert.equal(await ctx.getString(`@js:Packages.java.lang.String("中a").getBytes("gb2312").map(x => '%' + (x & 0xff).toString(16)).join("")`), '%d6%d0%61');
    assert.equal(await ctx.getString('@js:String(new Packages.java.lang.String([-42, -48], "gbk")) + Packages.java.lang.String("x").equals("x")'), '中true');
    // a script may catch a refusal and go on, as it may catch the app's exceptions
    assert.equal(
      await ctx.getString('@js:try { java.openUrl("x") } catch (e) { "caught: " + e.message }'),
      'caught: java.openUrl: needs a browser or the app’s login screen, which cannot run here',
    );
    assert.equal(await ctx.getString('@js:java.log("hello"); java.toast("hi"); "ok"'), 'ok');
    assert.deepEqual(h.logs, ['hello', '测试源: hi']);
  } finally {
    h.dispose();
  }
});

test('URL scripts: key, page, book, java.url written back; rule-only helpers refused', async () => {
  const h = harness();
  try {
    const bits = { url: 'https://book.example/s' } as Record<string, unknown>;
    const out = await h.bindings.urlScript(
      'java.url = java.url + "?q=" + key + "&p=" + page; book.name + result',
      { key: '剑', page: 2, book: { name: '书' }, result: 'R', java: bits },
      'searchUrl',
    );
    assert.equal(out, '书R');
    assert.equal(bits.url, 'https://book.example/s?q=剑&p=2');
    await assert.rejects(h.bindings.urlScript('java.getString("a")', {}, 'searchUrl'), { code: 'HELPER_UNSUPPORTED', helper: 'getString', rule: 'searchUrl' });
    const vars = new Map<string, string>();
    await h.bindings.urlScript(
      'java.put("x", "1")',
      { variables: { get: (k: string) => vars.get(k), put: (k: string, v: string) => vars.set(k, v) } },
      'tocUrl',
    );
    assert.equal(vars.get('x'), '1', 'AnalyzeUrl.put writes the rule data’s variables');
  } finally {
    h.dispose();
  }
});
