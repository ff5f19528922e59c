// The page `GET /` answers when no --web folder is given: what this server is, what it holds,
// and how to put the app's own web front-end on it.
import type { ServeOptions } from './context.js';
import type { AnyStore } from './context.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function welcomePage(store: AnyStore, _options: ServeOptions): string {
  const counts = store.read(() => ({
    books: store.tables.books.count(),
    bookSources: store.tables.book_sources.count(),
    rssSources: store.tables.rssSources.count(),
    replaceRules: store.tables.replace_rules.count(),
  }));
  const name = store.path.split(/[\\/]/).pop() ?? store.path;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>legado-store serve</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em}code,pre{background:#f3f3f3;padding:.1em .3em}pre{padding:.6em;overflow:auto}td{padding:.1em 1em .1em 0}</style>
</head><body>
<h1>legado-store serve</h1>
<p id="what">This server answers the web API of the Legado (阅读) reader app from a store file, so the app's own
web front-end and other clients can use your shelf, reading progress, book sources, RSS sources and
replace rules without the phone. It does not fetch from book sources: searching and reading web chapters
that are not stored need the app.</p>
<h2>This store</h2>
<table id="counts">
<tr><td>file</td><td><code>${escapeHtml(name)}</code> (schema ${store.version})</td></tr>
<tr><td>books</td><td data-count="books">${counts.books}</td></tr>
<tr><td>book sources</td><td data-count="bookSources">${counts.bookSources}</td></tr>
<tr><td>RSS sources</td><td data-count="rssSources">${counts.rssSources}</td></tr>
<tr><td>replace rules</td><td data-count="replaceRules">${counts.replaceRules}</td></tr>
</table>
<p>Try <a href="/getBookshelf">/getBookshelf</a> or <a href="/getBookSources">/getBookSources</a>.</p>
<h2>Add the app's web front-end</h2>
<p>The front-end (bookshelf, reader, source editor) is part of the app, GPL-3.0, and not shipped here.
Copy the app's <code>assets/web</code> folder (the built front-end is under <code>vue/</code>) and start the server with it:</p>
<pre>legado-store serve ${escapeHtml(name)} --web path/to/assets/web</pre>
<p>Then open <a href="/vue/index.html">/vue/index.html</a>. WebSockets (search, debugging) listen on this port + 1.</p>
<h2>For programs</h2>
<ul><li><code>POST /api/import</code>: a backup zip or a rule collection; the report as JSON</li>
<li><code>GET /api/export</code>: a backup zip of the store</li>
<li><code>GET /api/database</code>: the database file</li></ul>
</body></html>
`;
}
