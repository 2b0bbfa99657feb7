// Realistic version 2 account payloads in any number, fast: the sandbox platform's own payloads
// (`accountV2` of its seeded accounts) are the templates, so quality rules, pipeline stages,
// statuses and PINs are the platform's; ids, names, emails, phone numbers and timestamps are drawn
// afresh, the way the platform's seed draws them (its name lists, `first.last<n>@example.com`,
// 55 % with a co-client who shares the last name 80 % of the time). Seeding the platform itself
// with 50,000 accounts takes about 20 s on two cores, which is most of the bench's budget.

import { formatTimestamp } from '../platform/clock.ts';
import { createRandom } from '../platform/random.ts';
import { FIRST_NAMES, LAST_NAMES } from '../platform/seed.ts';
import type { accountV2 } from '../platform/v2/shape.ts';

export type V2Account = ReturnType<typeof accountV2>;
/** A member that exists (the interface sends an absent co-client as an object of nulls). */
type V2Member = Extract<V2Account['client'], { id: number }>;

function present(member: V2Account['client']): V2Member | null {
  return member.id === null ? null : member;
}

const DAY = 24 * 60 * 60_000;
/** Fixed, so that a seed gives the same records on every day. */
const ANCHOR = Date.UTC(2026, 0, 1);

export function benchAccounts(templates: readonly V2Account[], count: number, seed = 4): V2Account[] {
  if (templates.length === 0) throw new Error('No template accounts: seed the platform with some.');
  const rnd = createRandom(seed);
  const tags = new Map<string, number>();
  let memberId = 1_000_000;

  const member = (template: V2Member, first: string, last: string): V2Member => {
    const key = `${first}.${last}`;
    const tag = (tags.get(key) ?? 0) + 1;
    tags.set(key, tag);
    return {
      ...template,
      id: ++memberId,
      first_name: first,
      last_name: last,
      email: `${first}.${last}${tag}@example.com`.toLowerCase().replace(/'/g, ''),
      phone: template.phone.number
        ? { code: '+1', number: `${rnd.int(201, 989)}${rnd.digits(7)}`, country: 'US' }
        : { ...template.phone },
    };
  };

  const accounts: V2Account[] = [];
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!;
    const last = rnd.pick(LAST_NAMES);
    const first = rnd.pick(FIRST_NAMES);
    const client = present(template.client);
    if (!client) throw new Error(`The template account ${template.id} has no client.`);
    const co = present(template.coclient);
    const others = FIRST_NAMES.filter((n) => n !== first);
    const coclient = co
      ? member(co, rnd.pick(others), rnd.chance(0.8) ? last : rnd.pick(LAST_NAMES))
      : template.coclient;
    const createdDays = rnd.int(1, 730);
    const created = ANCHOR - createdDays * DAY - rnd.int(0, 86_000) * 1000;
    const updated = rnd.chance(0.5)
      ? created
      : Math.max(created, ANCHOR - rnd.int(0, createdDays - 1) * DAY - rnd.int(0, 86_000) * 1000);
    accounts.push({
      ...template,
      id: i + 1,
      client: member(client, first, last),
      coclient,
      created_at: formatTimestamp(created),
      updated_at: formatTimestamp(updated),
    });
  }
  return accounts;
}
