// The page: picks or takes dropped files, asks the worker (which owns the store) to load them,
// and shows the bookshelf, the book sources and the table counts. Downloads come back as bytes.
import type { LoadResult, Request, Response, View } from './protocol.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
let nextId = 1;

worker.onmessage = (e: MessageEvent<Response>) => {
  const w = waiting.get(e.data.id);
  waiting.delete(e.data.id);
  if (!w) return;
  if (e.data.ok) w.ok(e.data.result);
  else w.fail(Object.assign(new Error(e.data.error.message), { name: e.data.error.name }));
};

function ask<T>(req: Request, transfer: Transferable[] = []): Promise<T> {
  const id = nextId++;
  return new Promise<T>((ok, fail) => {
    waiting.set(id, { ok: ok as (v: unknown) => void, fail });
    worker.postMessage({ id, ...req }, transfer);
  });
}

function status(text: string, error = false): void {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function bar(pct: number): HTMLElement {
  const fill = el('i');
  fill.style.width = `${pct}%`;
  return fill;
}

let current: View | undefined;
let tab = 0;

function showShelf(): void {
  const v = current!;
  const tabs = $('tabs');
  tabs.replaceChildren(...v.shelf.map((g, i) => el('button', { role: 'tab', onclick: () => ((tab = i), showShelf()) }, `${g.group} (${g.books.length})`)));
  tab = Math.min(tab, Math.max(0, v.shelf.length - 1));
  tabs.children[tab]?.setAttribute('aria-selected', 'true');
  const books = v.shelf[tab]?.books ?? [];
  $('shelf').replaceChildren(
    ...(books.length === 0 ? [el('li', { className: 'muted' }, 'No books in this group.')] : []),
    ...books.map((b) => {
      const pct = b.of > 0 ? Math.round((b.at / b.of) * 100) : 0;
      const where = b.of > 0 ? `${b.at} / ${b.of} · ${b.chapter ?? ''}` : (b.chapter ?? 'not started');
      return el(
        'li',
        { className: 'book' },
        el('div', { className: 'title' }, b.name),
        el('div', { className: 'muted' }, `${b.author || '—'} · ${where}`),
        el('div', { className: 'bar', title: `${pct}%` }, bar(pct)),
      );
    }),
  );
}

/** The schema choices of a new library, filled once: the newest selected. */
function fillSchemas(v: View): void {
  const select = $<HTMLSelectElement>('schema');
  if (select.options.length > 0) return;
  select.replaceChildren(
    ...[...v.versions].reverse().map((n) => el('option', { value: String(n), selected: n === v.newest }, n === v.newest ? `${n} (newest)` : String(n))),
  );
}

function show(v: View): void {
  current = v;
  fillSchemas(v);
  showShelf();
  const total = v.counts['book_sources'] ?? 0;
  $('sourceCount').textContent = `(${total})`;
  $('sources').replaceChildren(
    ...(v.sources.length === 0 ? [el('div', { className: 'muted' }, 'No book sources.')] : []),
    ...v.sources.map((g) =>
      el(
        'details',
        {},
        el('summary', {}, `${g.group || 'No group'} — ${g.enabled} of ${g.sources.length} enabled`),
        el('ul', {}, ...g.sources.map((s) => el('li', { className: s.enabled ? 'source' : 'source off', title: s.url }, s.enabled ? '● ' : '○ ', s.name))),
      ),
    ),
  );
  $('engine').textContent = `schema ${v.version}, ${v.engine}`;
  $('counts').replaceChildren(...Object.entries(v.counts).map(([t, n]) => el('tr', {}, el('td', {}, t), el('td', { className: 'n' }, String(n)))));
}

async function refresh(): Promise<void> {
  show(await ask<View>({ op: 'view' }));
}

async function load(file: File): Promise<void> {
  status(`Reading ${file.name}…`);
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let r = await ask<LoadResult>({ op: 'load', name: file.name, bytes: bytes.slice() });
    if (r.needsConfirm) {
      if (!confirm(`Replace the library (its books and sources) with ${file.name}?`)) return status('Kept the library as it was.');
      r = await ask<LoadResult>({ op: 'load', name: file.name, bytes, replace: true }, [bytes.buffer]);
    }
    // The view first, then the status: a status line always describes what is shown.
    await refresh();
    status(r.summary);
  } catch (e) {
    status(`${file.name}: ${(e as Error).message}`, true);
  }
}

function download(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const stamp = (): string => new Date().toISOString().slice(0, 10);

$('file').addEventListener('change', (e) => {
  const input = e.target as HTMLInputElement;
  const f = input.files?.[0];
  if (f) void load(f).finally(() => (input.value = ''));
});
const drop = $('drop');
drop.addEventListener('dragover', (e) => (e.preventDefault(), drop.classList.add('over')));
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const f = e.dataTransfer?.files[0];
  if (f) void load(f);
});
$('backup').addEventListener('click', () =>
  ask<Uint8Array>({ op: 'exportBackup' })
    .then((b) => (download(b, `backup${stamp()}.zip`, 'application/zip'), status(`Backup zip: ${b.length} bytes.`)))
    .catch((e: Error) => status(e.message, true)),
);
$('database').addEventListener('click', () =>
  ask<Uint8Array>({ op: 'exportDatabase' })
    .then((b) => (download(b, 'legado.db', 'application/vnd.sqlite3'), status(`Database file: ${b.length} bytes.`)))
    .catch((e: Error) => status(e.message, true)),
);
$('clear').addEventListener('click', () => {
  const schema = Number($<HTMLSelectElement>('schema').value);
  if (!confirm(`Remove every book, source and setting from this browser, and start a new library at schema ${schema}?`)) return;
  ask<View>({ op: 'clear', schema })
    .then((v) => (show(v), status(`New library at schema ${v.version}.`)))
    .catch((e: Error) => status(e.message, true));
});

refresh()
  .then(() => status('Library ready.'))
  .catch((e: Error) => status(`Could not open the library: ${e.message}`, true));
