// The phone: requests made the way the app makes them (AppWebDav.kt, WebDav.kt), written here by
// hand from the app's code so the tests do not share code with src/webdav. The app builds a URL
// as text (folder + escaped file name), then encodes the whole text with Java's URLEncoder and
// turns `+` into `%20`, `%3A` back into `:` and `%2F` back into `/`.
import { Buffer } from 'node:buffer';
import { USER, PASSWORD } from './dav-servers.js';

const AUTH = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

/** java.net.URLEncoder.encode(s, "UTF-8"). */
function javaUrlEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    if (/[A-Za-z0-9.\-*_]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** WebDav.httpUrl: what the app sends for a URL it built as text. */
export function appHttpUrl(raw: string): string {
  return javaUrlEncode(raw).split('+').join('%20').split('%3A').join(':').split('%2F').join('/');
}

export interface AppProgress {
  name: string;
  author: string;
  durChapterIndex: number;
  durChapterPos: number;
  durChapterTime: number;
  durChapterTitle?: string;
}

/** GSON.toJson(BookProgress): pretty printed, fields in the data class's order, null title left out. */
export function appProgressJson(p: AppProgress): string {
  const o: Record<string, unknown> = {
    name: p.name,
    author: p.author,
    durChapterIndex: p.durChapterIndex,
    durChapterPos: p.durChapterPos,
    durChapterTime: p.durChapterTime,
  };
  if (p.durChapterTitle !== undefined) o.durChapterTitle = p.durChapterTitle;
  return JSON.stringify(o, null, 2);
}

export class Phone {
  requests = 0;
  /** `root` is the app's rootWebDavUrl: the configured URL plus `legado/`. */
  constructor(readonly root: string) {}

  private async send(method: string, raw: string, body?: string | Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
    this.requests++;
    return fetch(appHttpUrl(raw), { method, body: body ?? null, headers: { Authorization: AUTH, ...headers } });
  }

  /** upConfig(): MKCOL the folder and its sub-folders. */
  async setup(): Promise<void> {
    for (const sub of ['', 'bookProgress/', 'books/', 'background/']) {
      const r = await this.send('MKCOL', this.root + sub);
      if (!r.ok && r.status !== 405) throw new Error(`MKCOL ${sub}: ${r.status}`);
    }
  }

  /** uploadBookProgress: PUT bookProgressUrl + getProgressFileName(name, author), given as the app computes it. */
  async putProgress(fileNameText: string, json: string): Promise<void> {
    const r = await this.send('PUT', `${this.root}bookProgress/${fileNameText}`, json, { 'Content-Type': 'application/json; charset=utf-8' });
    if (!r.ok) throw new Error(`PUT progress ${fileNameText}: ${r.status}`);
  }

  /** getBookProgress: GET the same URL; the text, or undefined on 404. */
  async getProgress(fileNameText: string): Promise<string | undefined> {
    const r = await this.send('GET', `${this.root}bookProgress/${fileNameText}`);
    if (r.status === 404) return undefined;
    if (!r.ok) throw new Error(`GET progress ${fileNameText}: ${r.status}`);
    return r.text();
  }

  /** backUpWebDav: PUT rootWebDavUrl + fileName of the zip. */
  async putBackup(name: string, zip: Uint8Array): Promise<void> {
    const r = await this.send('PUT', this.root + name, zip, { 'Content-Type': 'application/octet-stream' });
    if (!r.ok) throw new Error(`PUT backup ${name}: ${r.status}`);
  }

  async getFile(name: string): Promise<Uint8Array> {
    const r = await this.send('GET', this.root + name);
    if (!r.ok) throw new Error(`GET ${name}: ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }

  /** listFiles(): PROPFIND depth 1, display names as the app derives them (the href's last segment, URL-decoded once). */
  async list(sub = ''): Promise<string[]> {
    const r = await this.send('PROPFIND', this.root + sub, undefined, { Depth: '1' });
    if (!r.ok) throw new Error(`PROPFIND ${sub}: ${r.status}`);
    const xml = await r.text();
    const hrefs = [...xml.matchAll(/<(?:[A-Za-z]+:)?href>([^<]*)<\/(?:[A-Za-z]+:)?href>/g)].map((m) => decodeXml(m[1]!));
    const self = new URL(appHttpUrl(this.root + sub)).pathname;
    return hrefs
      .map((h) => new URL(h, this.root).pathname)
      .filter((p) => p !== self && !p.endsWith('/'))
      .map((p) => decodeURIComponent(p.replace(/\+/g, '%2B').slice(p.lastIndexOf('/') + 1)));
  }
}

const decodeXml = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
