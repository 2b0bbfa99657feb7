// m) The engagement list at a firm's scale (`npm run bench m`), at 1,000 and 50,000 engagements
// side by side: the engagement index read as the list first asks for it (every row read, then
// built and sorted), beside the same rows read 500 to a record (what IndexedDB costs per record);
// a search typed a key at a time; the first open of each sort. The page side is
// engagements-page.ts.

import type { Platform } from '../platform/server.ts';
import { FIRST_NAMES, LAST_NAMES } from '../platform/seed.ts';
import { engagementV2 } from '../platform/v2/shape.ts';
import type { BenchCall } from './page.ts';
import { int, ms, ratio, summarize, table } from './report.ts';

const SIZES = [1_000, 50_000] as const;
const OPEN_RUNS = 5;
const KEY_RUNS = 3;

export async function engagementList(
  call: BenchCall,
  platform: Platform,
  say: (line?: string) => void,
  took: () => string,
): Promise<void> {
  const seeded = platform.control.store().state.engagements;
  if (seeded.length === 0) throw new Error('The sandbox seeded no engagement to make the bench’s from.');
  const templates = seeded.map((e) => engagementV2(e, platform.url));
  // Two last names of the seed's list typed as the advisor types them: the typed word's letters.
  const words = [LAST_NAMES[0]!, LAST_NAMES[Math.floor(LAST_NAMES.length / 2)]!].map((w) => w.toLowerCase());
  const at = [];
  for (const size of SIZES) {
    const made = await call('engagementStore', templates, FIRST_NAMES, LAST_NAMES, size);
    if (made.rows !== size) throw new Error(`The bench store holds ${made.rows} of ${size} engagements.`);
    const open = await call('engagementOpen', size, OPEN_RUNS);
    // A warm-up word, then the words typed.
    await call('engagementKeys', size, ['zz'], 1);
    const keys = await call('engagementKeys', size, words, KEY_RUNS);
    const sorts = await call('engagementSorts', size);
    at.push({ size, open, keys, sorts });
  }
  await call('dropEngagements');
  const [small, large] = at as [(typeof at)[number], (typeof at)[number]];
  const cell = (xs: number[]) => {
    const s = summarize(xs);
    return `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
  };
  say(`m) The engagement list at 1,000 and 50,000 engagements ${took()}`);
  say(
    `   ${int(templates.length)} sandbox engagements as templates (titles, statuses, templates), each for a ` +
      `named member of 5,000 accounts; ${OPEN_RUNS} runs each way alternated, medians (min–max)`,
  );
  say(
    table([
      ['', ...at.map((a) => `${int(a.size)} engagements`)],
      ['every row read (db.engagements.toArray())', ...at.map((a) => cell(a.open.readMs))],
      ['  read + the index built', ...at.map((a) => cell(a.open.builtMs))],
      ['  then the default order sorted', ...at.map((a) => cell(a.open.sortMs))],
      ['reference: the same rows read 500 to a record', ...at.map((a) => cell(a.open.chunkedMs))],
      [
        'reference / rows read',
        ...at.map((a) => ratio(summarize(a.open.chunkedMs).median, summarize(a.open.readMs).median)),
      ],
    ]),
  );
  say(`   a row is ${int(large.open.rowBytes)} bytes as JSON (mean of 200)`);
  say(
    `   a search typed a key at a time ("${words.join('", "')}", ${KEY_RUNS} times each): listEngagements' ` +
      `first page of 50 and its total, the index ready`,
  );
  const keyRow = (
    label: string,
    pick: (k: { ms: number; first: boolean }) => boolean,
    stat: 'median' | 'p95' | 'max',
  ) => {
    const [s, l] = [small, large].map((a) => summarize(a.keys.filter(pick).map((k) => k.ms))[stat]) as [
      number,
      number,
    ];
    return [label, ms(s), ms(l), ratio(l, s)];
  };
  const any = () => true;
  const firstKey = (k: { first: boolean }) => k.first;
  say(
    table([
      ['', '1,000', '50,000', '50,000 / 1,000'],
      keyRow('a key, median', any, 'median'),
      keyRow('a key, p95', any, 'p95'),
      keyRow('a key, max', any, 'max'),
      keyRow('the first letter, median', firstKey, 'median'),
    ]),
  );
  const matches = large.keys.find((k) => k.first)?.total ?? 0;
  say(`   the first letter matches ${int(matches)} of ${int(large.size)} engagements`);
  say(`   each sort opened the first time (its order sorted then), in a store opened afresh`);
  say(
    table([
      ['sort', '1,000', '50,000', '50,000 / 1,000'],
      ...small.sorts.map((s, i) => {
        const l = large.sorts[i]!;
        return [s.key, ms(s.ms), ms(l.ms), ratio(l.ms, s.ms)];
      }),
    ]),
  );
  say(`   target (as the account list's): a key under 16 ms median and 33 ms p95 at 50,000`);
  say();
}
