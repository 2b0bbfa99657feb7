// Deterministic sample data: the same seed and anchor give the same state. Financial sections are
// generated per account on first use (store.ts), from a stream of their own, so a platform with
// 50,000 accounts starts in moments and still serves the same data whatever is read first.

import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { DEFAULT_PIPELINES, PERMISSION_KEYS, type Permission } from './catalog.ts';
import { formatDate, formatTimestamp } from './clock.ts';
import type {
  AccountRecord,
  EngagementRecord,
  FormRecord,
  MemberRecord,
  ReportRecord,
  SectionItem,
  State,
  StoredFile,
  Structure,
  TemplateRecord,
  UserRecord,
} from './model.ts';
import { createRandom, randomFor, type Random } from './random.ts';
import { portraitPng, signaturePng, simplePdf } from './samples.ts';

export const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'James',
  'Isabella',
  'William',
  'Mia',
  'Benjamin',
  'Charlotte',
  'Lucas',
  'Amelia',
  'Henry',
  'Harper',
  'Theodore',
  'Evelyn',
  'Jack',
  'Abigail',
  'Levi',
  'Emily',
  'Alexander',
  'Ella',
  'Jackson',
  'Elizabeth',
  'Mateo',
  'Camila',
  'Daniel',
  'Luna',
  'Michael',
  'Sofia',
  'Mason',
  'Avery',
  'Sebastian',
  'Mila',
  'Ethan',
  'Aria',
  'Logan',
  'Scarlett',
  'Owen',
  'Penelope',
  'Samuel',
  'Layla',
  'Jacob',
  'Chloe',
  'Asher',
  'Victoria',
  'Aiden',
  'Madison',
  'John',
  'Eleanor',
  'Joseph',
  'Grace',
  'Wyatt',
  'Nora',
  'David',
  'Riley',
  'Leo',
  'Zoey',
  'Priya',
  'Wei',
  'Fatima',
  'Mohammed',
  'Yuki',
  'Ananya',
  'Diego',
];
export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Patel',
  'Chen',
  'Kim',
  'Okafor',
  "O'Brien",
  'Schmidt',
  'Rossi',
  'Novak',
  'Kowalski',
  'Dubois',
];
const CITIES: [string, string, string][] = [
  ['Austin', 'TX', '787'],
  ['Denver', 'CO', '802'],
  ['Portland', 'OR', '972'],
  ['Columbus', 'OH', '432'],
  ['Raleigh', 'NC', '276'],
  ['Madison', 'WI', '537'],
  ['Tampa', 'FL', '336'],
  ['Boise', 'ID', '837'],
  ['Richmond', 'VA', '232'],
  ['Scottsdale', 'AZ', '852'],
  ['Naperville', 'IL', '605'],
  ['Pasadena', 'CA', '911'],
  ['Burlington', 'VT', '054'],
  ['Ann Arbor', 'MI', '481'],
  ['Albany', 'NY', '122'],
  ['Savannah', 'GA', '314'],
];
const STREETS = [
  'Maple Ave',
  'Oak St',
  'Cedar Ln',
  'Elm St',
  'Lakeview Dr',
  'Hillcrest Rd',
  'Park Pl',
  'River Rd',
  'Sunset Blvd',
  'Willow Way',
];
const PROVIDERS = [
  'Northwind Bank',
  'Evergreen Mutual',
  'Summit Trust',
  'Harbor Life',
  'Pioneer Investments',
  'Keystone Credit Union',
  'Bluewater Capital',
  'Granite Insurance',
];
const EMPLOYERS = [
  'Acme Logistics',
  'Brightline Health',
  'Cobalt Software',
  'Delta Engineering',
  'Fairview Schools',
  'Ironwood Manufacturing',
  'Juniper Retail',
  'City of Springfield',
];
const POSITIONS = [
  'Engineer',
  'Nurse',
  'Teacher',
  'Project Manager',
  'Accountant',
  'Sales Director',
  'Pharmacist',
  'Owner',
];

export const SANDBOX_PASSWORD = 'sandbox';
export const SANDBOX_SECRET = 'sandbox-secret';
export const CLIENT_ID = 'advisor-desk';

export function hashPassword(password: string, salt = randomBytes(16).toString('hex')): string {
  return `${salt}:${scryptSync(password, salt, 32).toString('hex')}`;
}

/** Deterministic hash for the seeded users, so that the same seed gives the same state. */
function seededHash(password: string, seed: number, userId: number): string {
  return hashPassword(password, createHash('sha256').update(`${seed}:${userId}`).digest('hex').slice(0, 32));
}

export interface SeedOptions {
  seed: number;
  accounts: number;
  /** Milliseconds; sample timestamps lie before it. Default: today's UTC midnight. */
  anchor?: number;
}

const DAY = 86_400_000;

function allPermissions(except: Permission[] = []): Record<Permission, boolean> {
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, !except.includes(k)])) as Record<
    Permission,
    boolean
  >;
}

function datasetStructure(rnd: Random): Structure {
  const s: Structure = { panels: [], groups: [], elements: [] };
  const layout: [string, string, [string, string, [string, string][]][]][] = [
    [
      'INDIVIDUAL',
      'About you',
      [
        [
          'Identity',
          'How we address you',
          [
            ['STRING', 'Preferred name'],
            ['DATE', 'Date of birth'],
            ['STRING', 'Occupation'],
          ],
        ],
        [
          'Contact',
          null as unknown as string,
          [
            ['STRING', 'Mobile phone'],
            ['TEXT', 'Home address'],
            ['EMAIL', 'Email'],
          ],
        ],
        [
          'Identification',
          'Documents we keep on file',
          [
            ['FILE', 'Photo ID'],
            ['IMAGE', 'Portrait'],
          ],
        ],
      ],
    ],
    [
      'ACCOUNT',
      'Your household',
      [
        [
          'Goals',
          'What matters most',
          [
            ['NUMBER', 'Planned retirement age'],
            ['TEXT', 'Top financial goal'],
            ['STRING', 'Risk comfort'],
          ],
        ],
        [
          'Documents',
          'Statements and paperwork',
          [
            ['FILE', 'Latest tax return'],
            ['FILE', 'Proof of address'],
          ],
        ],
        ['Consent', null as unknown as string, [['SIGNATURE', 'Signature']]],
      ],
    ],
  ];
  layout.forEach(([type, title, groups], p) => {
    const panel = {
      id: rnd.uuid(),
      type,
      title,
      description: p === 0 ? 'Answered by each member' : 'Answered once per household',
      position: p + 1,
    };
    s.panels.push(panel);
    groups.forEach(([gTitle, gDesc, elements], g) => {
      const group = {
        id: rnd.uuid(),
        panel_id: panel.id,
        type: 'SINGLE',
        title: gTitle,
        description: gDesc ?? null,
        position: g + 1,
      };
      s.groups.push(group);
      elements.forEach(([eType, eTitle], e) => {
        s.elements.push({
          id: rnd.uuid(),
          group_id: group.id,
          type: eType,
          title: eTitle,
          description: null,
          size: eType === 'TEXT' ? 12 : 6,
          position: `${Math.floor(e / 2) + 1},${(e % 2) + 1}`,
        });
      });
    });
  });
  return s;
}

const TEMPLATE_KINDS: [
  string,
  string,
  TemplateRecord['type'],
  TemplateRecord['security'],
  TemplateRecord['auth'],
  string[],
][] = [
  [
    'Client intake questionnaire',
    'Everything we need to start planning together',
    'OTHER',
    'HIGH',
    'password',
    ['onboarding'],
  ],
  [
    'Risk tolerance questionnaire',
    'How you feel about market ups and downs',
    'OTHER',
    'LOW',
    'passwordless',
    ['risk'],
  ],
  [
    'Free retirement check-up',
    'A five-minute look at your retirement readiness',
    'LEADGEN',
    'LOW',
    'passwordless',
    ['lead', 'retirement'],
  ],
  ['Annual review', 'Confirm what changed this year', 'OTHER', 'HIGH', 'email-pin', ['review']],
  [
    'Beneficiary update',
    'Review and sign your beneficiary designations',
    'OTHER',
    'HIGH',
    'sms-pin',
    ['estate', 'signature'],
  ],
];

/** A template's structure: the dataset's elements it asks for (connected to the profile) and its own. */
function templateStructure(rnd: Random, dataset: Structure, index: number): Structure {
  const s: Structure = { panels: [], groups: [], elements: [] };
  for (const panel of dataset.panels) {
    s.panels.push({ ...panel });
    for (const group of dataset.groups.filter((g) => g.panel_id === panel.id)) {
      if ((group.position + index) % 3 === 0 && group.title !== 'Consent') continue;
      if (group.title === 'Consent' && index % 2 === 1) continue;
      s.groups.push({ ...group });
      s.elements.push(...dataset.elements.filter((e) => e.group_id === group.id).map((e) => ({ ...e })));
    }
  }
  const own = {
    id: rnd.uuid(),
    panel_id: s.panels[s.panels.length - 1]!.id,
    type: 'SINGLE',
    title: 'Anything else',
    description: null,
    position: 9,
  };
  s.groups.push(own);
  s.elements.push({
    id: rnd.uuid(),
    group_id: own.id,
    type: 'TEXT',
    title: 'Questions for your advisor',
    description: 'Not stored in the profile',
    size: 12,
    position: '1,1',
  });
  return s;
}

function phoneNumber(rnd: Random): string {
  return `${rnd.int(201, 989)}${rnd.digits(7)}`;
}

function makeMember(
  rnd: Random,
  id: number,
  first: string,
  last: string,
  emailTag: number,
  hasDetails: boolean,
  anchor: number,
): MemberRecord {
  const [city, state, zip] = rnd.pick(CITIES);
  const birth = anchor - rnd.int(25 * 365, 80 * 365) * DAY;
  const email = `${first}.${last}${emailTag}@example.com`.toLowerCase().replace(/'/g, '');
  const statusRoll = rnd.next();
  return {
    id,
    first_name: first,
    middle_initial: rnd.chance(0.4) ? rnd.pick('ABCDEFGHJKLMNPRSTW'.split('')) : null,
    last_name: last,
    email,
    phone: rnd.chance(0.9)
      ? { code: '+1', number: phoneNumber(rnd), country: 'US' }
      : { code: null, number: null, country: null },
    home_phone: hasDetails && rnd.chance(0.4) ? `+1${phoneNumber(rnd)}` : null,
    work_phone: hasDetails && rnd.chance(0.3) ? `+1${phoneNumber(rnd)}` : null,
    gender: hasDetails ? rnd.pick(['male', 'female'] as const) : null,
    birth_date: hasDetails ? `${formatDate(birth)} 00:00:00` : null,
    marital_status: hasDetails
      ? rnd.pick(['single', 'married', 'married', 'divorced', 'widowed', 'partner'])
      : null,
    previous_marriages: hasDetails ? rnd.pick([0, 0, 0, 1, 2]) : null,
    citizenship: { country: hasDetails ? 'US' : null },
    address: hasDetails
      ? {
          line1: `${rnd.int(10, 9999)} ${rnd.pick(STREETS)}`,
          line2: rnd.chance(0.2) ? `Apt ${rnd.int(1, 40)}` : null,
          city,
          state,
          zip: `${zip}${rnd.digits(2)}`,
          country: 'US',
        }
      : {},
    photo: null,
    risk_score:
      hasDetails && rnd.chance(0.8)
        ? rnd.pick([rnd.int(1, 10), Math.round(rnd.next() * 90 + 10) / 10])
        : null,
    comments:
      hasDetails && rnd.chance(0.3)
        ? rnd.pick([
            'Prefers morning meetings.',
            'Wants to retire early.',
            'Travels often; email first.',
            'Cares for an elderly parent.',
          ])
        : null,
    drivers_license:
      hasDetails && rnd.chance(0.5)
        ? {
            number: `D${rnd.digits(8)}`,
            issue_date: `${formatDate(anchor - rnd.int(400, 2500) * DAY)} 00:00:00`,
            expire_date: `${formatDate(anchor + rnd.int(100, 2500) * DAY)} 00:00:00`,
            jurisdiction: { state, country: 'US' },
            document: null,
          }
        : {
            number: null,
            issue_date: null,
            expire_date: null,
            jurisdiction: { state: null, country: null },
            document: null,
          },
    status: statusRoll < 0.5 ? 'ACTIVE' : statusRoll < 0.95 ? 'NEW' : 'BLOCKED',
    pin: rnd.digits(6),
  };
}

export function addFile(
  state: State,
  file: Omit<StoredFile, 'id' | 'data' | 'size'> & { bytes: Buffer },
  id: string,
): string {
  state.files[id] = {
    id,
    name: file.name,
    mime: file.mime,
    kind: file.kind,
    created_at: file.created_at,
    data: file.bytes.toString('base64'),
    size: file.bytes.length,
    ...(file.teamId !== undefined ? { teamId: file.teamId } : {}),
  };
  return id;
}

export function seedState(options: SeedOptions): State {
  const anchor = options.anchor ?? Math.floor(Date.now() / DAY) * DAY;
  const rnd = createRandom(options.seed);
  const ts = (daysAgo: number, extraSeconds = 0) =>
    formatTimestamp(anchor - daysAgo * DAY - extraSeconds * 1000);
  const teams = [
    { id: 1, name: 'Main Street Advisors' },
    { id: 2, name: 'Harbor Wealth Partners' },
  ];
  const users: UserRecord[] = [
    {
      id: 1,
      email: 'advisor@sandbox.test',
      passwordHash: seededHash(SANDBOX_PASSWORD, options.seed, 1),
      first_name: 'Alex',
      last_name: 'Morgan',
      phone: { code: '+1', number: '5125550142', country: 'US' },
      timezone: 'America/Chicago',
      currency: 'USD',
      company: 'Main Street Advisors',
      company_email: 'office@mainstreet.example',
      company_phone: '+15125550100',
      photo: null,
      company_logo: null,
      teamIds: [1, 2],
      currentTeamId: 1,
      permissions: allPermissions(),
    },
    {
      id: 2,
      email: 'assistant@sandbox.test',
      passwordHash: seededHash(SANDBOX_PASSWORD, options.seed, 2),
      first_name: 'Sam',
      last_name: 'Rivera',
      phone: { code: '+1', number: '5125550177', country: 'US' },
      timezone: 'America/Chicago',
      currency: 'USD',
      company: 'Main Street Advisors',
      company_email: 'office@mainstreet.example',
      company_phone: '+15125550100',
      photo: null,
      company_logo: null,
      teamIds: [1],
      currentTeamId: 1,
      permissions: allPermissions([
        'accounts.prospects.delete',
        'accounts.clients.delete',
        'accounts.convert',
        'engagements.close',
        'engagements.delete',
      ]),
    },
  ];
  const pipelines = DEFAULT_PIPELINES.map((p, i) => ({ ...p, id: rnd.uuid(), position: i + 1 }));
  const dataset = datasetStructure(rnd);
  const templates: TemplateRecord[] = [];
  for (const team of teams) {
    TEMPLATE_KINDS.forEach(([title, description, type, security, auth, tags], i) => {
      templates.push({
        id: rnd.uuid(),
        key: `${team.id}${String(i + 1).padStart(3, '0')}`,
        teamId: team.id,
        ownerId: i % 2 === 0 ? 1 : 2,
        title,
        description,
        type,
        security,
        auth,
        status: 'published',
        modified: i === 3,
        default: i === 0,
        tags,
        structure: templateStructure(rnd, dataset, i),
      });
    });
  }
  const state: State = {
    version: 1,
    seed: options.seed,
    users,
    teams,
    pipelines,
    dataset,
    templates,
    accounts: [],
    engagements: [],
    forms: [],
    reports: [],
    accountActivities: [],
    userActivities: [],
    files: {},
    counters: { account: 0, member: 1000, accountActivity: 0, userActivity: 0, signature: 0, form: 10000 },
  };

  for (const user of users) {
    user.photo = addFile(
      state,
      {
        name: 'avatar.png',
        mime: 'image/png',
        kind: 'image',
        created_at: ts(800),
        bytes: portraitPng(user.id * 41),
      },
      rnd.uuid(),
    );
    user.company_logo = addFile(
      state,
      { name: 'logo.png', mime: 'image/png', kind: 'image', created_at: ts(800), bytes: portraitPng(7) },
      rnd.uuid(),
    );
  }
  const usedNames = new Map<string, number>();
  for (let i = 1; i <= options.accounts; i++) {
    const type = rnd.chance(0.6) ? 'CLIENT' : 'PROSPECT';
    const teamId = rnd.chance(0.8) ? 1 : 2;
    const createdDays = rnd.int(1, 730);
    const last = rnd.pick(LAST_NAMES);
    const clientFirst = rnd.pick(FIRST_NAMES);
    const tagFor = (first: string) => {
      const key = `${first}.${last}`;
      const n = (usedNames.get(key) ?? 0) + 1;
      usedNames.set(key, n);
      return n;
    };
    const hasDetails = rnd.chance(0.75);
    const client = makeMember(
      rnd,
      ++state.counters.member,
      clientFirst,
      last,
      tagFor(clientFirst),
      hasDetails,
      anchor,
    );
    let coclient: MemberRecord | null = null;
    if (rnd.chance(0.55)) {
      let coFirst = rnd.pick(FIRST_NAMES);
      if (coFirst === clientFirst) coFirst = rnd.pick(FIRST_NAMES.filter((n) => n !== clientFirst));
      coclient = makeMember(
        rnd,
        ++state.counters.member,
        coFirst,
        rnd.chance(0.8) ? last : rnd.pick(LAST_NAMES),
        tagFor(coFirst),
        hasDetails && rnd.chance(0.8),
        anchor,
      );
      if (client.marital_status && coclient.marital_status)
        coclient.marital_status = client.marital_status = 'married';
    }
    const stages = pipelines.filter((p) => p.type === type);
    const account: AccountRecord = {
      id: ++state.counters.account,
      uuid: rnd.uuid(),
      teamId,
      type,
      client,
      coclient,
      pipelineId: rnd.pick(stages).id,
      favorited: rnd.chance(0.1),
      archived: rnd.chance(0.06),
      created_at: ts(createdDays, rnd.int(0, 86_000)),
      updated_at: '',
      profile: [],
    };
    account.updated_at = rnd.chance(0.5)
      ? account.created_at
      : ts(rnd.int(0, createdDays - 1), rnd.int(0, 86_000));
    if (account.updated_at < account.created_at) account.updated_at = account.created_at;
    state.accounts.push(account);
    seedAccountExtras(state, account, rnd, anchor, i <= 400);
  }
  seedReports(state, rnd, ts);
  seedFeedHistory(state, anchor);
  return state;
}

/**
 * Earlier entries of the advisor's feed, a few of every documented type the accounts and forms
 * above do not already give, so that clients meet each type: members blocked after wrong
 * passwords, switched members, imports, form links, opened forms, reminders, deleted forms. Each
 * follows a record it is about, before the anchor. It draws from a stream of its own and comes
 * last, so the rest of the sample data is the same as without it.
 */
function seedFeedHistory(state: State, anchor: number): void {
  const rnd = randomFor(state.seed, 0xfeed);
  const author = state.users[0]!;
  const name = (m: MemberRecord) => `${m.first_name} ${m.last_name}`;
  const ms = (t: string) => Date.parse(`${t.replace(' ', 'T')}Z`);
  /** A moment after `from` and before the anchor (the anchor itself when nothing is left between). */
  const after = (from: string) => {
    const start = Math.min(ms(from), anchor - 1000);
    return formatTimestamp(start + Math.floor(rnd.next() * (anchor - start) * 0.9));
  };
  const few = <T>(items: T[], n = 2): T[] => {
    const pool = [...items];
    return Array.from(
      { length: Math.min(n, pool.length) },
      () => pool.splice(rnd.int(0, pool.length - 1), 1)[0] as T,
    );
  };
  const add = (teamId: number, type: string, created_at: string, description: string) =>
    state.userActivities.push({
      id: ++state.counters.userActivity,
      userId: author.id,
      teamId,
      type,
      created_at,
      description,
    });
  for (const team of state.teams) {
    const accounts = state.accounts.filter((a) => a.teamId === team.id);
    const ids = new Set(accounts.map((a) => a.id));
    const forms = state.forms.filter((f) => ids.has(f.account_id));
    const opened = forms.filter((f) => f.opened_at);
    const titleOf = (f: FormRecord) => state.templates.find((t) => t.id === f.template_id)?.title ?? 'Form';
    const to = (f: FormRecord) => f.recipients.map((r) => r.name).join(' and ');
    const report = state.reports.find((r) => r.teamId === team.id);

    // Members whose status says they were blocked: each was blocked once, by wrong passwords.
    for (const a of accounts)
      for (const m of [a.client, a.coclient])
        if (m?.status === 'BLOCKED')
          add(
            team.id,
            'account.member.blocked',
            after(a.created_at),
            `${name(m)} was blocked after repeated wrong passwords`,
          );
    for (const a of few(accounts.filter((x) => x.coclient)))
      add(
        team.id,
        'account.members.switched',
        after(a.created_at),
        `${name(a.client)} and ${name(a.coclient!)} switched places as client and co-client`,
      );
    for (const a of few(accounts))
      add(
        team.id,
        'account.imported',
        a.created_at,
        `${name(a.client)} was imported with a batch of accounts`,
      );
    for (const a of few(accounts.filter((x) => x.type === 'CLIENT')))
      add(team.id, 'account.converted', after(a.created_at), `${name(a.client)} became a client`);
    for (const a of few(accounts.filter((x) => !x.coclient)))
      add(
        team.id,
        'account.coclient.deleted',
        after(a.created_at),
        `${rnd.pick(FIRST_NAMES)} ${a.client.last_name} was removed from the account of ${name(a.client)}`,
      );
    for (let i = 0; i < 2 && accounts.length > 0; i++)
      add(
        team.id,
        'account.client.deleted',
        after(rnd.pick(accounts).created_at),
        `The account of ${rnd.pick(FIRST_NAMES)} ${rnd.pick(LAST_NAMES)} was deleted`,
      );
    for (const a of few(accounts))
      add(
        team.id,
        'account.security.reset',
        after(a.created_at),
        `A new PIN was issued to ${name(a.client)}`,
      );
    for (const a of few(accounts))
      add(
        team.id,
        'account.currentdata.updated',
        after(a.created_at),
        `${rnd.pick(['Asset', 'Goal', 'Insurance', 'Plan'])} data of ${name(a.client)} was updated`,
      );
    if (report)
      for (const a of few(accounts))
        add(
          team.id,
          'account.exported',
          after(a.created_at),
          `${report.title} of ${name(a.client)} was exported as ${rnd.pick(['PDF', 'XLS', 'CSV'])}`,
        );

    for (const f of few(forms))
      add(team.id, 'form.link', after(f.created_at), `A link to “${titleOf(f)}” was made for ${to(f)}`);
    for (const f of few(opened)) {
      add(team.id, 'form.link.accessed', f.opened_at!, `${to(f)} opened the link to “${titleOf(f)}”`);
    }
    for (const f of few(opened))
      add(team.id, 'form.accessed', f.opened_at!, `${to(f)} opened “${titleOf(f)}”`);
    for (const f of few(forms.filter((x) => x.status !== 'CLOSED')))
      add(team.id, 'form.resent', after(f.created_at), `A form was resent to ${to(f)}`);
    for (const f of few(forms)) {
      add(
        team.id,
        'form.reminders.activated',
        after(f.created_at),
        `Reminders of “${titleOf(f)}” for ${to(f)} were turned on`,
      );
    }
    for (const f of few(forms))
      add(
        team.id,
        'form.reminders.deactivated',
        after(f.created_at),
        `Reminders of “${titleOf(f)}” for ${to(f)} were turned off`,
      );
    // Forms that are gone: sent to an account of the team, then deleted.
    for (const a of few(accounts)) {
      const template = rnd.pick(state.templates.filter((t) => t.teamId === team.id));
      add(
        team.id,
        'form.deleted',
        after(a.created_at),
        `“${template.title}” sent to ${name(a.client)} was deleted`,
      );
    }
  }
}

function seedAccountExtras(
  state: State,
  account: AccountRecord,
  rnd: Random,
  anchor: number,
  withFiles: boolean,
): void {
  const author = state.users[0]!;
  const authorName = `${author.first_name} ${author.last_name}`;
  const name = `${account.client.first_name} ${account.client.last_name}`;
  const activity = (type: string, created_at: string, description: string, options: Record<string, string>) =>
    state.accountActivities.push({
      id: ++state.counters.accountActivity,
      accountId: account.id,
      type,
      created_at,
      description,
      options,
    });
  const userActivity = (type: string, created_at: string, description: string) =>
    state.userActivities.push({
      id: ++state.counters.userActivity,
      userId: author.id,
      teamId: account.teamId,
      type,
      created_at,
      description,
    });
  activity('account.created', account.created_at, `${authorName} created the account of ${name}`, {
    author: authorName,
    type: account.type,
    name,
  });
  userActivity(
    'account.client.created',
    account.created_at,
    `${name} was added as a ${account.type === 'CLIENT' ? 'client' : 'prospect'}`,
  );
  if (account.coclient)
    userActivity(
      'account.coclient.created',
      account.created_at,
      `${account.coclient.first_name} ${account.coclient.last_name} was added as co-client of ${name}`,
    );
  if (account.updated_at !== account.created_at)
    activity('account.updated', account.updated_at, `${authorName} updated the account of ${name}`, {
      author: authorName,
      name,
    });

  if (withFiles && account.client.address.city && rnd.chance(0.5)) {
    account.client.photo = addFile(
      state,
      {
        name: `${account.client.first_name.toLowerCase()}-portrait.png`,
        mime: 'image/png',
        kind: 'image',
        created_at: account.created_at,
        bytes: portraitPng(account.id),
        teamId: account.teamId,
      },
      rnd.uuid(),
    );
  }
  const templates = state.templates.filter((t) => t.teamId === account.teamId);
  if (rnd.chance(0.4)) {
    const count = rnd.int(1, 3);
    for (let e = 0; e < count; e++) {
      const template = rnd.pick(templates);
      const member = account.coclient && rnd.chance(0.3) ? account.coclient : account.client;
      const createdMs = Date.parse(account.created_at.replace(' ', 'T') + 'Z') + rnd.int(1, 60) * DAY;
      if (createdMs > anchor) continue;
      const created_at = formatTimestamp(createdMs);
      const completed = rnd.chance(0.55);
      const completedMs = completed ? Math.min(anchor, createdMs + rnd.int(1, 20) * DAY) : null;
      const completedAt = completedMs === null ? null : formatTimestamp(completedMs);
      const engagement: EngagementRecord = {
        id: rnd.uuid(),
        account_id: account.id,
        member_id: member.id,
        template_id: template.id,
        title: template.title,
        description: template.description,
        security: template.security,
        name: `${member.first_name} ${member.last_name}`,
        email: member.email,
        status: completed ? 'COMPLETED' : 'NEW',
        filled: 0,
        time: 0,
        created_at,
        opened_at:
          completed || rnd.chance(0.5) ? formatTimestamp(Math.min(anchor, createdMs + 3_600_000)) : null,
        email_reminders: rnd.chance(0.7),
        reminded_at: rnd.chance(0.3)
          ? formatTimestamp(Math.min(anchor, completedMs ?? anchor, createdMs + 2 * DAY))
          : null,
        email_completed: rnd.chance(0.8),
        completed_at: completedAt,
        answers: [],
        documents: [],
        signatures: [],
        history: [],
      };
      if (completed || engagement.opened_at)
        fillAnswers(state, engagement, template, member, rnd, withFiles, completed);
      state.engagements.push(engagement);
      activity(
        'engagement.created',
        created_at,
        `${authorName} sent “${template.title}” to ${engagement.name}`,
        { author: authorName, template: template.title, name: engagement.name },
      );
      if (completed && completedAt) {
        activity('engagement.completed', completedAt, `${engagement.name} completed “${template.title}”`, {
          author: engagement.name,
          template: template.title,
          name: engagement.name,
        });
        engagement.history.push({
          id: rnd.uuid(),
          author: engagement.name,
          created_at,
          completed_at: completedAt,
        });
      }
    }
  }
  if (rnd.chance(0.35)) {
    const template = rnd.pick(templates);
    const sentMs = Date.parse(account.created_at.replace(' ', 'T') + 'Z') + rnd.int(1, 90) * DAY;
    const created_at = formatTimestamp(Math.min(anchor - rnd.int(1, 80_000) * 1000, sentMs));
    const status = rnd.pick(['NEW', 'IN_PROGRESS', 'CLOSED'] as const);
    state.forms.push({
      key: String(++state.counters.form),
      account_id: account.id,
      definition_key: rnd.uuid(),
      template_id: template.id,
      status,
      recipients: [{ role: 'client', name: `${account.client.first_name} ${account.client.last_name}` }],
      created_at,
      updated_at: created_at,
      opened_at: status === 'NEW' ? null : created_at,
      reminded_at: null,
      closed_at: status === 'CLOSED' ? created_at : null,
    });
    userActivity('form.sent', created_at, `“${template.title}” was sent to ${name}`);
    if (status === 'CLOSED')
      userActivity('form.closed', created_at, `“${template.title}” of ${name} was closed`);
  }
}

/**
 * Answers for a filled engagement: profile values where the element is a dataset element. Also
 * what the sandbox's engaged member gives through the control endpoint (engaged-member.ts).
 */
export function fillAnswers(
  state: State,
  engagement: EngagementRecord,
  template: TemplateRecord,
  member: MemberRecord,
  rnd: Random,
  withFiles: boolean,
  completed: boolean,
): void {
  const datasetIds = new Set(state.dataset.elements.map((e) => e.id));
  const account = state.accounts.find((a) => a.id === engagement.account_id);
  for (const element of template.structure.elements) {
    if (!completed && rnd.chance(0.5)) continue;
    const connected = datasetIds.has(element.id) ? element.id : null;
    let value: string;
    switch (element.type) {
      case 'DATE':
        value = member.birth_date?.slice(0, 10) ?? '1970-01-01';
        break;
      case 'NUMBER':
        value = String(rnd.int(55, 70));
        break;
      case 'EMAIL':
        value = member.email;
        break;
      case 'FILE':
      case 'IMAGE': {
        if (!withFiles) continue;
        const fileName =
          element.type === 'IMAGE'
            ? 'portrait.png'
            : `${element.title.toLowerCase().replace(/\s+/g, '-')}.pdf`;
        const fileId = addFile(
          state,
          element.type === 'IMAGE'
            ? {
                name: fileName,
                mime: 'image/png',
                kind: 'image',
                created_at: engagement.created_at,
                bytes: portraitPng(member.id),
                teamId: account?.teamId,
              }
            : {
                name: fileName,
                mime: 'application/pdf',
                kind: 'document',
                created_at: engagement.created_at,
                bytes: simplePdf([
                  element.title,
                  `${member.first_name} ${member.last_name}`,
                  `Uploaded ${engagement.created_at}`,
                ]),
                teamId: account?.teamId,
              },
          rnd.uuid(),
        );
        engagement.documents.push({
          id: rnd.uuid(),
          field_id: element.id,
          title: element.title,
          files: [fileId],
          updated_at: engagement.created_at,
        });
        value = fileName;
        if (connected && account)
          account.profile.push({
            id: rnd.uuid(),
            dataset_id: connected,
            member_id: member.id,
            row_id: rnd.uuid(),
            type: element.type,
            value,
            file: fileId,
          });
        engagement.answers.push({ element_id: element.id, value, dataset_id: connected });
        continue;
      }
      case 'SIGNATURE': {
        if (!completed) continue;
        const fileId = addFile(
          state,
          {
            name: 'signature.png',
            mime: 'image/png',
            kind: 'image',
            created_at: engagement.completed_at ?? engagement.created_at,
            bytes: signaturePng(member.id),
            teamId: account?.teamId,
          },
          rnd.uuid(),
        );
        engagement.signatures.push({
          id: ++state.counters.signature,
          field_id: element.id,
          title: element.title,
          name: engagement.name,
          email: engagement.email,
          ip: `203.0.113.${rnd.int(1, 254)}`,
          signed_at: engagement.completed_at ?? engagement.created_at,
          file: fileId,
        });
        continue;
      }
      default:
        value =
          element.title === 'Preferred name'
            ? member.first_name
            : element.title === 'Occupation'
              ? rnd.pick(POSITIONS)
              : element.title === 'Mobile phone'
                ? `${member.phone.code ?? ''}${member.phone.number ?? ''}`
                : element.title === 'Home address'
                  ? [member.address.line1, member.address.city, member.address.state]
                      .filter(Boolean)
                      .join(', ')
                  : element.title === 'Risk comfort'
                    ? rnd.pick(['Cautious', 'Balanced', 'Adventurous'])
                    : rnd.pick([
                        'Pay off the mortgage',
                        'Retire at 60',
                        'Fund college',
                        'Travel more',
                        'No questions for now',
                      ]);
    }
    engagement.answers.push({ element_id: element.id, value, dataset_id: connected });
    if (connected && completed && account)
      account.profile.push({
        id: rnd.uuid(),
        dataset_id: connected,
        member_id: member.id,
        row_id: rnd.uuid(),
        type: element.type,
        value,
      });
  }
  engagement.filled = Math.round(
    (100 * engagement.answers.length) / Math.max(1, template.structure.elements.length),
  );
  engagement.time = engagement.answers.length * rnd.int(20, 90);
}

function seedReports(state: State, rnd: Random, ts: (daysAgo: number) => string): void {
  let key = 0;
  for (const team of state.teams) {
    const intake = state.templates.find((t) => t.teamId === team.id)!;
    const defs: Omit<ReportRecord, 'id' | 'key' | 'teamId' | 'created_at' | 'updated_at'>[] = [
      {
        type: 'DATADEFINITION',
        source: 'accounts',
        title: 'Household overview',
        description: 'Every household with its members, net worth and stage',
        tags: ['accounts'],
      },
      {
        type: 'DATADEFINITION',
        source: 'financials',
        title: 'Net worth summary',
        description: 'Assets, liabilities and net worth by household',
        tags: ['financials'],
      },
      {
        type: 'FORMDEFINITION',
        source: intake.key,
        title: `${intake.title} responses`,
        description: 'Status of every form sent from this template',
        tags: ['forms'],
      },
    ];
    for (const def of defs) {
      const created = ts(rnd.int(30, 400));
      state.reports.push({
        ...def,
        id: rnd.uuid(),
        key: ++key,
        teamId: team.id,
        created_at: created,
        updated_at: created,
      });
    }
  }
}

/** The financial sections of one account, generated on first use from a stream of the account's own. */
export function seedSections(
  seed: number,
  account: AccountRecord,
): { sections: Record<string, SectionItem[]>; singles: Record<string, Record<string, unknown>> } {
  const rnd = randomFor(seed, account.id, 77);
  const sections: Record<string, SectionItem[]> = {};
  const singles: Record<string, Record<string, unknown>> = {};
  const item = (fields: Record<string, unknown>): SectionItem => ({
    id: `${account.uuid}|${rnd.uuid()}`,
    fields,
  });
  const money = (min: number, max: number, frequency = 'one-time') => ({
    value: Math.round(rnd.int(min, max) / 10) * 10,
    frequency,
  });
  const owner = () => ({
    type: account.coclient ? rnd.pick(['client', 'coclient', 'joint']) : 'client',
    id: null,
  });
  const filled = rnd.chance(0.7);
  const list = (path: string, n: number, make: () => Record<string, unknown>) => {
    sections[path] = filled ? Array.from({ length: n }, () => item(make())) : [];
  };
  list('family', rnd.int(0, 3), () => {
    const age = rnd.int(1, 30);
    const birth = new Date(
      Date.UTC(Number(account.created_at.slice(0, 4)) - age, rnd.int(0, 11), rnd.int(1, 28)),
    );
    return {
      relationship: age > 26 && rnd.chance(0.3) ? 'other' : 'child',
      first_name: rnd.pick(FIRST_NAMES),
      middle_initial: null,
      last_name: account.client.last_name,
      gender: rnd.pick(['male', 'female']),
      birth_date: birth.toISOString().slice(0, 10),
      dependent: age < 22,
      email: null,
      phone: null,
      college_type: age < 18 ? rnd.pick(['public', 'private']) : null,
      college_start: age < 18 ? birth.getUTCFullYear() + 18 : null,
      college_end: age < 18 ? birth.getUTCFullYear() + 22 : null,
    };
  });
  const named = <T extends string>(pairs: [string, T][]) => rnd.pick(pairs);
  const pair = ([name, type]: [string, string]) => ({ name, type });
  list('assets', rnd.int(1, 3), () => {
    const [name, type] = named([
      ['Family home', 'primary-residence'],
      ['Lake cabin', 'secondary-residence'],
      ['Honda CR-V', 'vehicle'],
      ['Tesla Model 3', 'vehicle'],
      ['Art collection', 'collectible'],
      ['Boat', 'other'],
    ]);
    const big = type.endsWith('residence');
    return {
      name,
      type,
      owner: owner(),
      current_value: money(big ? 180000 : 6000, big ? 950000 : 60000),
      original_value: money(big ? 120000 : 9000, big ? 700000 : 70000),
    };
  });
  list('cash', rnd.int(1, 3), () => {
    const [name, type] = named([
      ['Everyday checking', 'checking'],
      ['Emergency fund', 'savings'],
      ['Holiday savings', 'savings'],
      ['Money market', 'money-market'],
      ['12-month CD', 'cd'],
    ]);
    return {
      name,
      type,
      provider: rnd.pick(PROVIDERS),
      owner: owner(),
      current_value: money(500, 80000),
      interest: rnd.int(0, 450) / 100,
      end_date: type === 'cd' ? `${Number(account.created_at.slice(0, 4)) + 1}-06-30` : null,
    };
  });
  list('liabilities', rnd.int(0, 2), () => ({
    ...pair(
      named([
        ['Mortgage', 'fixed'],
        ['Adjustable mortgage', 'arm'],
        ['Car loan', 'auto'],
        ['Student loan', 'school'],
        ['Credit card', 'credit-card'],
      ]),
    ),
    owner: owner(),
    provider: rnd.pick(PROVIDERS),
    start_date: `20${rnd.int(10, 24)}-0${rnd.int(1, 9)}-15`,
    end_date: `20${rnd.int(30, 55)}-0${rnd.int(1, 9)}-15`,
    interest: rnd.int(200, 900) / 100,
    original_value: money(5000, 500000),
    current_value: money(1000, 400000),
    cost_value: money(100, 3500, 'monthly'),
  }));
  list('plans', rnd.int(0, 2), () => ({
    ...pair(
      named([
        ['Company 401(k)', '401k'],
        ['Roth IRA', 'roth-ira'],
        ['Traditional IRA', 'ira'],
        ['529 college plan', 'college'],
      ]),
    ),
    owner: owner(),
    provider: rnd.pick(PROVIDERS),
    contribution_value: money(100, 1500, 'monthly'),
    employer_contribution_value: money(0, 600, 'monthly'),
    current_value: money(2000, 700000),
    primary_beneficiary: null,
    secondary_beneficiary: null,
  }));
  list('taxable', rnd.int(0, 2), () => ({
    name: rnd.pick(['Brokerage account', 'Index fund portfolio']),
    provider: rnd.pick(PROVIDERS),
    owner: owner(),
    cost_value: money(1000, 150000),
    current_value: money(1000, 250000),
  }));
  list('annuities', rnd.int(0, 1), () => ({
    name: 'Retirement annuity',
    owner: owner(),
    provider: rnd.pick(PROVIDERS),
    primary_beneficiary: null,
    secondary_beneficiary: null,
    type: rnd.pick(['fixed', 'variable', 'indexed']),
    contribution_value: money(0, 800, 'monthly'),
    current_value: money(10000, 300000),
    distribution_type: rnd.pick(['series-of-distributions', 'lump-sum']),
    distribution_value: money(0, 2000, 'monthly'),
  }));
  list('insurance', rnd.int(0, 2), () => ({
    ...pair(
      named([
        ['Term life 20y', 'term'],
        ['Whole life', 'whole'],
        ['Family health plan', 'health'],
        ['Auto policy', 'auto'],
        ['Home policy', 'homeowner'],
        ['Income protection', 'disability'],
      ]),
    ),
    provider: rnd.pick(PROVIDERS),
    owner: owner(),
    insured: { type: 'client', id: null },
    primary_beneficiary: null,
    secondary_beneficiary: null,
    premium_value: money(30, 600, 'monthly'),
    coverage_value: money(50000, 1500000),
    cash_value: money(0, 40000),
  }));
  list('contacts', rnd.int(0, 2), () => ({
    type: rnd.pick(['accountant', 'attorney', 'broker', 'tax-preparer']),
    first_name: rnd.pick(FIRST_NAMES),
    last_name: rnd.pick(LAST_NAMES),
    email: null,
    phone: `+1${rnd.int(201, 989)}${rnd.digits(7)}`,
    company: rnd.pick(['Lakeside CPA', 'Baker & Hale LLP', 'Crestview Tax']),
  }));
  list('expenses-variable', rnd.int(0, 4), () => ({
    type: rnd.pick(['groceries', 'gas-electric', 'cable-internet', 'eating-out', 'vacations', 'charity']),
    value: money(40, 1200, 'monthly'),
  }));
  sections.documents = [];
  const family = sections.family ?? [];
  list('goals', rnd.int(0, 2), () => {
    const child = family.find((f) => f.fields.relationship === 'child');
    const college = child !== undefined && rnd.chance(0.6);
    return {
      type: college ? 'college' : rnd.pick(['travel', 'home', 'purchase', 'bequest']),
      name: college
        ? `College for ${String(child.fields.first_name)}`
        : rnd.pick(['Dream trip to Japan', 'Kitchen remodel', 'New car', 'Legacy gift']),
      owner: owner(),
      beneficiary: college ? { type: 'FamilyMember', id: child.id } : null,
      priority: rnd.pick(['low', 'medium', 'high']),
      frequency: 'one-time',
      target: { value: rnd.int(5, 200) * 1000, date: `20${rnd.int(27, 40)}-06-01` },
    };
  });
  for (const role of ['client', 'coclient'] as const) {
    if (role === 'coclient' && !account.coclient) continue;
    list(`employment:${role}`, rnd.int(0, 1), () => ({
      employer: rnd.pick(EMPLOYERS),
      position: rnd.pick(POSITIONS),
      duration: rnd.int(1, 25),
      address: {},
      salary: money(35000, 240000, 'yearly'),
      comissions: rnd.int(0, 20000),
      document: null,
    }));
    if (filled)
      singles[`income:${role}`] = {
        employment: money(2500, 18000, 'monthly'),
        social_security: money(0, 0),
        dividends: money(0, 400, 'monthly'),
        interest: money(0, 100, 'monthly'),
        comments: null,
      };
  }
  if (filled) {
    singles['expenses-fixed'] = {
      mortgage: money(0, 3500, 'monthly'),
      auto_insurance: money(60, 250, 'monthly'),
      health_insurance: money(0, 900, 'monthly'),
      credit_card: money(0, 600, 'monthly'),
    };
    singles['expenses-tax'] = {
      federal_income: money(4000, 60000, 'yearly'),
      state_income: money(0, 15000, 'yearly'),
      real_estate: money(0, 9000, 'yearly'),
    };
  }
  return { sections, singles };
}
