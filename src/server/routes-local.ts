// Local books through the API (BookController.addLocalBook, and the local branches of refreshToc
// and getBookContent in routes-books.ts): the upload page's multipart POST, kept by the host's
// BookStorage and split by the local-book importer, all or nothing.
import type { Hono } from 'hono';
import { addBook, addBookAsync } from '../localbook/api.js';
import type { RouteContext } from './context.js';
import { apiAnswer, fail, ok } from './envelope.js';
import { FileExistsError } from '../errors.js';
import { BookFileError } from '../localbook/errors.js';
import { BadEpubError } from '../localbook/epub/errors.js';
import { ArchiveLimitError, BadArchiveError } from '../backup/errors.js';

// The app's upload page (assets/web/uploadBook, html5_fun.js) marks a file done (✓) on HTTP 200
// whatever the body says, and failed (✗, to try again) on any other status; the app answers 200
// with isSuccess false. A refused file gets the same envelope with a failing status here.
const refused = (res: Response, status: number): Response => new Response(res.body, { status, headers: res.headers });

/** 400 for a file this store cannot read, 409 for another file of that name kept, 500 otherwise. */
const refusalStatus = (e: unknown): number =>
  e instanceof BookFileError || e instanceof BadEpubError || e instanceof BadArchiveError || e instanceof ArchiveLimitError
    ? 400
    : e instanceof FileExistsError
      ? 409
      : 500;

export function localBookRoutes(app: Hono, { store, options }: RouteContext): void {
  app.post('/addLocalBook', async (c) => {
    const answer = (env: Parameters<typeof apiAnswer>[0]) => apiAnswer(env);
    let form: Record<string, string | File | (string | File)[]> = {};
    try {
      if (/multipart\/form-data|application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '')) form = await c.req.parseBody({ all: true });
    } catch {
      form = {};
    }
    const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
    const fileName = c.req.query('fileName') ?? (typeof first(form.fileName) === 'string' ? (first(form.fileName) as string) : undefined);
    if (!fileName) return refused(answer(fail('fileName 不能为空')), 400);
    const data = first(form.fileData);
    if (!(data instanceof File) || data.size === 0) return refused(answer(fail('fileData 不能为空')), 400);
    if (!options.bookStorage) return refused(answer(fail('保存书籍错误\nthis server keeps no local book files')), 501);
    try {
      const input = { fileName, bytes: new Uint8Array(await data.arrayBuffer()) };
      const limits = options.ruleTimeLimitMs !== undefined ? { timeLimitMs: options.ruleTimeLimitMs } : {};
      if (options.rules) await addBookAsync(store as never, options.bookStorage, input, limits, options.rules);
      else addBook(store as never, options.bookStorage, input, limits);
    } catch (e) {
      return refused(answer(fail(`保存书籍错误\n${(e as Error).message}`)), refusalStatus(e));
    }
    return answer(ok(true));
  });
}
