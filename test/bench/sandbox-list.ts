// j) The sandbox platform's own v2 account list page over HTTP, at 1,000 and 50,000 accounts: what
// the sandbox adds to every test and demo that lists at scale (it should add next to nothing). The
// first request of a sort builds that sort's order (test/platform/account-order.ts), so each
// page's first request is shown apart; median and p95 are over the requests after it.

import { startPlatform } from '../platform/server.ts';
import { int, ms, ratio, summarize, table, type Summary } from './report.ts';

const SIZES = [1_000, 50_000] as const;
const RUNS = 3;
/** Pages asked for, each after a first request of its sort; `{last}` is the last page's offset. */
const PAGES = [
  'limit=50',
  'limit=500',
  'limit=50&offset=500',
  'limit=50&offset={last}',
  'sort=client.last_name&limit=50&offset=200',
  'sort=-quality&limit=50',
  'sort=pipeline&type=client&limit=50',
  'sort=-updated_at&type=prospect&limit=500',
  'query=mar&limit=50',
  'query=a&sort=client.email&limit=50&offset=100',
];

async function measure(accounts: number): Promise<{ first: Summary; page: Summary; total: number }> {
  const platform = await startPlatform({ port: 0, seed: 1, accounts, rateLimit: 0 });
  try {
    const token = platform.control.token('advisor@sandbox.test').access_token;
    const get = async (query: string) => {
      const started = performance.now();
      const res = await fetch(`${platform.url}/api/v2/accounts?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { params: { total: number } };
      if (!res.ok) throw new Error(`GET /accounts?${query} answered ${res.status}.`);
      return { ms: performance.now() - started, total: body.params.total };
    };
    const { total } = await get('limit=1');
    const first: number[] = [];
    const page: number[] = [];
    for (const query of PAGES.map((p) => p.replace('{last}', String(Math.max(0, total - 50))))) {
      first.push((await get(query)).ms);
      for (let run = 0; run < RUNS; run++) page.push((await get(query)).ms);
    }
    return { first: summarize(first), page: summarize(page), total };
  } finally {
    await platform.close();
  }
}

export async function sandboxListPages(say: (line?: string) => void, took: () => string): Promise<void> {
  const [small, large] = [await measure(SIZES[0]), await measure(SIZES[1])];
  say(
    `j) The sandbox's v2 account list page over HTTP, ${int(SIZES[0])} and ${int(SIZES[1])} accounts ${took()}`,
  );
  say(
    `   ${PAGES.length} pages (limits 50 and 500, offsets to the last page, sorts, type filters, queries), ` +
      `each ${RUNS} times after its first request; the advisor's team sees ${int(small.total)} and ${int(large.total)}`,
  );
  const row = (what: string, a: Summary, b: Summary) => [
    what,
    ms(a.median),
    ms(a.p95),
    ms(b.median),
    ms(b.p95),
    ratio(b.median, a.median),
  ];
  say(
    table(
      [
        ['', `${int(SIZES[0])} median`, 'p95', `${int(SIZES[1])} median`, 'p95', 'ratio'],
        row('a page', small.page, large.page),
        row('its first request (builds a new sort)', small.first, large.first),
      ],
      1,
      '   ',
    ),
  );
  say();
}
