// Local books through the API (BookController.addLocalBook, and the local branches of refreshToc
// and getBookContent in routes-books.ts): the upload page's multipart POST, kept by the host's
// BookStorage and split by the local-book importer, all or nothing.
import type { Hono } from 'hono';
import { addBook, addBookAsync } from '../localbook/api.js';
import type { RouteContext } from './context.js';
import { apiAnswer, fail, ok } from './envelope.js';

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
    if (!fileName) return answer(fail('fileName 不能为空'));
    const data = first(form.fileData);
    if (!(data instanceof File) || data.size === 0) return answer(fail('fileData 不能为空'));
    if (!options.bookStorage) return answer(fail('保存书籍错误\nthis server keeps no local book files'));
    try {
      const input = { fileName, bytes: new Uint8Array(await data.arrayBuffer()) };
      const limits = options.ruleTimeLimitMs !== undefined ? { timeLimitMs: options.ruleTimeLimitMs } : {};
      if (options.rules) await addBookAsync(store as never, options.bookStorage, input, limits, options.rules);
      else addBook(store as never, options.bookStorage, input, limits);
    } catch (e) {
      return answer(fail(`保存书籍错误\n${(e as Error).message}`));
    }
    return answer(ok(true));
  });
}
