// A test Worker (run by wrangler dev from test/worker/net-policy.test.ts): the network policy
// inside workerd, with workerd's own URL parser, over a host fetch that records what it is asked
// and answers each URL with a redirect to the test's target: no request leaves the Worker.
import { NetworkPolicyError } from '../../src/net/errors.js';
import { fetchWithPolicy, type HostFetch } from '../../src/net/fetch.js';
import { checkUrl } from '../../src/net/rules.js';

/** What the test sends: URLs to judge, and redirect targets to follow from a public start. */
interface Input {
  readonly urls: readonly string[];
  readonly redirects: readonly string[];
}

const outcome = (e: unknown): string => (e instanceof NetworkPolicyError ? `${e.code}:${e.reason ?? ''}` : `other:${String(e)}`);

export default {
  async fetch(request: Request): Promise<Response> {
    const input = (await request.json()) as Input;
    const judged = input.urls.map((url) => {
      try {
        return ['allowed', checkUrl(url).href];
      } catch (e) {
        return [outcome(e)];
      }
    });
    const followed = [];
    for (const target of input.redirects) {
      const asked: string[] = [];
      const host: HostFetch = async (url) => {
        asked.push(url);
        return new Response(null, { status: 302, headers: { Location: target } });
      };
      try {
        await fetchWithPolicy('https://covers.example.com/a.jpg', {}, { fetch: host });
        followed.push({ target, result: 'fetched', asked });
      } catch (e) {
        followed.push({ target, result: outcome(e), asked });
      }
    }
    return Response.json({ judged, followed });
  },
};
