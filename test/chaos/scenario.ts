// The chaos scenario (DESIGN.md §6): a fresh sandbox platform; the real sync engine (push and pull
// over fake-indexeddb, through the real main-side transport); an advisor making random changes
// offline while the engine syncs in the background; an assistant changing the same records through
// the platform's API; faults of every kind the platform offers; the app killed mid-push and
// started again. Then faults off, everything pushed and pulled, and the invariants checked
// (check.ts): nothing duplicated, nothing lost, the local store the same as the server.
//
// The run is seeded (the same seed makes the same choices), but the engine works in the
// background over real HTTP, so timing may still make two runs of one seed differ.

import {
  ChangeRefused,
  DELETED_ON_SERVER,
  createRecord,
  deleteRecord,
  discardEngagementChange,
  discardFormChange,
  isFormOp,
  queueCloseForm,
  queueResendForm,
  queueSendForm,
  isEngagementOp,
  queueCloseEngagement,
  queueReopenEngagement,
  queueRemoveFile,
  queueSendEngagement,
  queueUpload,
  recordOps,
  resolveConflict,
  updateRecord,
  type AnyRow,
  type ConflictChoice,
  type FileRef,
} from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { isPendingFile } from '../../renderer/src/data/files.ts';
import type { AccountRow, Fields, Operation, SectionItemRow } from '../../renderer/src/data/model.ts';
import { unflatten } from '../../renderer/src/data/view.ts';
import type { PushEvent } from '../../renderer/src/sync/push/index.ts';
import type { ApiRequest } from '@shared/api/request.ts';
import {
  COLLECTION_SECTIONS,
  SINGLE_SECTIONS,
  fieldsOfKind,
  sectionKey,
  sectionOfKey,
  sectionPath,
  type MemberRole,
  type SectionDescriptor,
} from '@shared/sections.ts';
import { ADVISOR, ASSISTANT, sandboxClient, type SandboxClient } from '../support/sandbox-client.ts';
import { FAULT_KINDS } from '../platform/guard.ts';
import { createRandom, type Random } from '../platform/random.ts';
import { startPlatform, type Platform } from '../platform/server.ts';
import { openDb } from '../support/store.ts';
import { Clock, Life, type Host } from './app.ts';
import { check } from './check.ts';
import { EngagementIntents } from './engagements.ts';
import { FormIntents } from './forms.ts';
import { Oracle, type RecordRef } from './oracle.ts';
import {
  MARKER_FIELD,
  accountPatch,
  chosenFile,
  detailsPatch,
  fixedAccountFields,
  fixedDetails,
  fixedItemFields,
  itemPatch,
  markerOf,
  memberFields,
  newAccount,
  newItem,
  singlePatch,
  type LocalRelation,
  type Marker,
  type ValueSource,
} from './values.ts';

export interface ChaosOptions {
  seed: number;
  /** Changes the advisor makes. */
  ops: number;
  /** Probability of a fault per request (and how often tokens expire or sign-in is needed). */
  faults: number;
  /** Times the app is killed mid-push and started again. */
  restarts: number;
  /** Sample accounts of the platform (about 80 % in the advisor's team). Default 12. */
  accounts?: number;
  /** Told what happens, one line at a time (restarts, sign-ins, problems). */
  log?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  ops: number;
  /** Requests the engine sent (push and pull, settling included; not the checker's reads). */
  requests: number;
  duplicates: number;
  lost: number;
  divergent: number;
  /** Conflicts the engine opened (each answered by the simulated user). */
  conflicts: number;
  /** Changes the platform refused (each fixed or discarded by the simulated user). */
  rejected: number;
  /** One line per finding, and anything else that looked wrong on the way. */
  problems: string[];
}

/** The one line the runner prints. */
export function summary(r: ChaosReport): string {
  return `ops=${r.ops} requests=${r.requests} duplicates=${r.duplicates} lost=${r.lost} divergent=${r.divergent} conflicts=${r.conflicts} rejected=${r.rejected}`;
}

export const failed = (r: ChaosReport): boolean => r.duplicates + r.lost + r.divergent > 0;

/** Runs one scenario on its own platform and local database. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const platform = await startPlatform({
    port: 0,
    seed: options.seed,
    accounts: options.accounts ?? 12,
    rateLimit: 0,
  });
  const scenario = new Scenario(platform, options);
  try {
    return await scenario.run();
  } finally {
    await scenario.dispose();
    await platform.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often each kind of change is made, relative to the others. */
const CHANGES = {
  createAccount: 3,
  editAccount: 10,
  editDetails: 7,
  editSingle: 8,
  createItem: 30,
  editItem: 28,
  deleteItem: 12,
  /** A photo, a driver's-license or an employment document (Documents files come with their item). */
  upload: 5,
  removeFile: 2,
  /** A questionnaire sent to a member; one of those sent closed or reopened. */
  sendEngagement: 3,
  closeEngagement: 2,
  reopenEngagement: 1,
  /** A form sent from a 0.0.1 template; one of those held resent or closed. */
  sendForm: 3,
  resendForm: 1,
  closeForm: 2,
} as const;
type ChangeKind = keyof typeof CHANGES;

/** What the assistant does, relative weights. */
const THEIR_CHANGES = {
  editAccount: 20,
  editDetails: 10,
  editSingle: 10,
  createItem: 15,
  editItem: 30,
  deleteItem: 12,
} as const;

/** Share of the changes given one invalid value (refused with 422, then fixed by the user). */
const INVALID = 0.04;

function weighted<K extends string>(random: Random, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as [K, number][];
  let roll = random.next() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [kind, weight] of entries) if ((roll -= weight) < 0) return kind;
  return entries[0]![0];
}

/** A section's items are named by this relation type (`FamilyMember` …). */
const ENTITY_OF = new Map(COLLECTION_SECTIONS.map((s) => [s.path, s.entity]));
const PERSON_SECTIONS = new Set(['family', 'contacts']);

/** A relation to an item of the account, and the section the item is in. */
type ItemRelation = LocalRelation & { section: string };

class Scenario implements Host {
  readonly advisor: SandboxClient;
  private readonly assistant: SandboxClient;
  readonly clock = new Clock();
  private readonly random: Random;
  readonly engineRandom: Random;
  private readonly oracle = new Oracle();
  private readonly dbName = `chaos-${crypto.randomUUID()}`;
  private life: Life;
  /** Local ids of the accounts worked on: a few sample accounts, and every account made here. */
  private readonly scope: string[] = [];
  private readonly report: ChaosReport;
  private markers = 0;
  /** Markers handed out: only these identify a record (an invalid value is no marker). */
  private readonly issued = new Set<Marker>();
  private fileUrls: string[] = [];
  private signedOut = false;
  /** How many times the app has started. */
  private lives = 1;
  /** Items made here, in the order they were made. */
  private readonly madeHere = new Map<string, number>();
  /** Fixes tried per refused operation: after a few, a refused create is discarded. */
  private readonly fixes = new Map<string, number>();
  private readonly engagements = new EngagementIntents();
  private readonly forms = new FormIntents();
  /** The advisor's team's templates' keys (0.0.1 addresses a template by key). */
  private templateKeys: string[] = [];
  /** The advisor's team's templates. */
  private templates: string[] = [];

  constructor(
    private readonly platform: Platform,
    private readonly options: ChaosOptions,
  ) {
    this.random = createRandom(options.seed);
    this.engineRandom = createRandom(options.seed ^ 0x5a5a5a5a);
    this.advisor = sandboxClient(platform, ADVISOR);
    this.assistant = sandboxClient(platform, ASSISTANT);
    this.life = new Life(this, this.dbName);
    this.report = {
      seed: options.seed,
      ops: options.ops,
      requests: 0,
      duplicates: 0,
      lost: 0,
      divergent: 0,
      conflicts: 0,
      rejected: 0,
      problems: [],
    };
  }

  // ---- Host ----

  countRequest(): void {
    this.report.requests++;
  }

  onPushEvent(event: PushEvent): void {
    if ('recordId' in event) this.oracle.note(event.table, event.recordId, `push: ${describe(event)}`);
    if (event.type === 'conflict') this.report.conflicts++;
    if (event.type === 'rejected') {
      this.report.rejected++;
      // A refusal with no status was not the platform's: the engine built something it should not.
      if (event.error.status === null) this.problem(`refused by the engine: ${event.error.message}`);
    }
    // The engine turns its own exceptions into a retry; the transport's messages name the platform.
    if (
      event.type === 'retry' &&
      event.error.status === null &&
      !/platform|cancelled/i.test(event.error.message)
    )
      this.problem(`the engine failed on ${event.table} ${event.recordId}: ${event.error.message}`);
  }

  problem(message: string): void {
    this.report.problems.push(message);
    this.options.log?.(`problem: ${message}`);
  }

  private get db(): AdvisorDb {
    return this.life.db;
  }

  // ---- The run ----

  async run(): Promise<ChaosReport> {
    await this.setUp();
    const restarts = this.restartPoints();
    for (let change = 0; change < this.options.ops; change++) {
      this.oracle.when = `#${change} life ${this.lives}`;
      for (let n = restarts.get(change) ?? 0; n > 0; n--) await this.restart();
      await this.aroundTheUser();
      await this.localChange();
    }
    this.oracle.when = `settling, life ${this.lives}`;
    await this.settle();
    const findings = await check({
      db: this.db,
      oracle: this.oracle,
      send: (req) => this.advisor.transport.request(req),
      state: this.platform.control.dump(),
      scope: this.scope,
    });
    const tell = (kind: 'duplicates' | 'lost', message: string) => {
      findings[kind]++;
      findings.problems.push(`${kind}: ${message}`);
    };
    await this.engagements.check(this.db, this.platform.control.dump(), tell);
    await this.forms.check(this.db, this.platform.control.dump(), tell);
    // The first lines come with the story of the records they name.
    const problems = [...this.report.problems, ...findings.problems];
    const told = problems.flatMap((line, i) => (i < 5 ? [line, ...this.oracle.storyOf(line)] : [line]));
    Object.assign(this.report, findings, { problems: told });
    return this.report;
  }

  async dispose(): Promise<void> {
    this.advisor.transport.dispose();
    this.assistant.transport.dispose();
    this.life.db.close();
    await openDb(this.dbName).delete();
  }

  /** The account list, and a few sample accounts of the advisor's team in full. */
  private async setUp(): Promise<void> {
    const control = this.platform.control;
    const state = control.dump();
    const team = state.users.find((u) => u.email === ADVISOR)!.currentTeamId;
    this.engagements.started(state);
    this.templates = state.templates.filter((t) => t.teamId === team).map((t) => t.id);
    this.forms.started(state);
    this.templateKeys = state.templates.filter((t) => t.teamId === team).map((t) => t.key);
    this.fileUrls = Object.values(state.files)
      .filter((f) => f.teamId === team)
      .map((f) => `${this.platform.url}/api/v0/files/${f.id}/${encodeURIComponent(f.name)}`);
    await this.life.pull.pullAccountList({ full: true });
    const accounts = await this.db.accounts.toArray();
    // Both with and without a co-client.
    const picked = [
      ...accounts.filter((a) => a.meta.coclientId !== null).slice(0, 2),
      ...accounts.filter((a) => a.meta.coclientId === null).slice(0, 2),
    ];
    for (const account of picked) {
      await this.life.pull.pullAccount(account.id);
      this.scope.push(account.id);
    }
    control.setFaults({
      probability: this.options.faults,
      kinds: [...FAULT_KINDS],
      // Retry-After: 0 keeps the transport from holding every request for a second after each
      // 429 or 503 (the engine's backoff still applies, in the scenario's time).
      retryAfter: 0,
      latencyMs: 20,
      queue: [],
    });
  }

  /** Change indexes at which the app is killed mid-push (several may fall on one). */
  private restartPoints(): Map<number, number> {
    const points = new Map<number, number>();
    for (let i = 0; i < this.options.restarts; i++) {
      const at = this.random.int(1, Math.max(1, this.options.ops - 1));
      points.set(at, (points.get(at) ?? 0) + 1);
    }
    return points;
  }

  /** What happens between two changes of the user: syncing, pulling, the assistant, tokens, answers. */
  private async aroundTheUser(): Promise<void> {
    const r = this.random;
    this.clock.advance(r.int(0, 2_000));
    if (r.chance(0.15)) this.life.startPush();
    if (r.chance(0.04)) await this.life.idle();
    if (r.chance(0.03)) this.life.startPull(r.chance(0.7) ? r.pick(this.scope) : null, r.chance(0.3));
    if (r.chance(0.12)) await this.theirChange();
    if (r.chance(0.08)) await this.answerConflict();
    if (r.chance(0.08)) await this.fixRefused();
    await this.tokenEvents();
  }

  /** Access tokens expire now and then; more rarely, every sign-in ends and the user signs in again. */
  private async tokenEvents(): Promise<void> {
    const r = this.random;
    const p = this.options.faults;
    if (r.chance(p * 0.04)) this.platform.control.expireTokens();
    if (!this.signedOut && r.chance(p * 0.01)) {
      this.options.log?.('every sign-in ends');
      this.platform.control.revokeTokens();
      this.advisor.tokens.refuse = true;
      this.assistant.tokens.signIn();
      this.signedOut = true;
    } else if (this.signedOut && r.chance(0.1)) await this.signIn();
  }

  private async signIn(): Promise<void> {
    this.advisor.tokens.signIn();
    this.signedOut = false;
    await this.life.push.rearm();
  }

  /**
   * The app dies mid-push: after a few more requests (the last one sent or not), its promises are
   * abandoned and its database connection closes; a new app opens the same database, and what
   * the old one left in flight is uncertain.
   */
  private async restart(): Promise<void> {
    const r = this.random;
    const life = this.life;
    life.startPush();
    await life.killAfter(r.int(1, 4), r.chance(0.5), 100);
    // Transactions the dying app had begun end as they would have; nothing new starts there.
    await sleep(20);
    await life.sentSettled();
    this.options.log?.('restart');
    this.life = new Life(this, this.dbName);
    this.oracle.when = this.oracle.when.replace(/life \d+$/, `life ${++this.lives}`);
    if (!this.signedOut) await this.life.push.rearm();
  }

  // ---- The user's changes ----

  private async localChange(): Promise<void> {
    const kind = weighted<ChangeKind>(this.random, CHANGES);
    const invalid = this.random.chance(INVALID);
    try {
      await this.changes[kind](invalid);
    } catch (error) {
      // The screen would not have offered it (a record a pull just removed, say).
      if (!(error instanceof ChangeRefused)) throw error;
    }
  }

  private readonly changes: Record<ChangeKind, (invalid: boolean) => Promise<void>> = {
    createAccount: async (invalid) => {
      const fields = newAccount(this.values(null), invalid);
      const { id } = await createRecord(this.db, 'accounts', { fields });
      this.scope.push(id);
      this.oracle.created(accountRef(id), fields, this.markerIn(fields['client.email']));
    },
    editAccount: async (invalid) => {
      const account = await this.anAccount();
      const r = this.random;
      const coclient = hasCoclient(account);
      const patch =
        !coclient && r.chance(0.15)
          ? memberFields(this.values(null), 'coclient')
          : r.chance(0.03)
            ? { type: account.fields.type === 'CLIENT' ? 'PROSPECT' : 'CLIENT' }
            : accountPatch(
                this.values(null),
                { hasCoclient: coclient, stages: this.stages(account) },
                invalid,
              );
      await updateRecord(this.db, 'accounts', account.id, patch);
      this.wroteAccount(account.id, patch);
      // A co-client is often added with their details and employment at once, offline.
      if ('coclient.email' in patch && r.chance(0.5)) await this.newCoclientData(account.id);
    },
    editDetails: async (invalid) => {
      const account = await this.anAccount();
      const key = `details:${this.member(account)}`;
      const patch = detailsPatch(this.values(null), invalid);
      await createRecord(this.db, 'singles', { accountId: account.id, key, fields: patch });
      this.oracle.wrote(singleRef(account.id, key), patch, null);
    },
    editSingle: async (invalid) => {
      const account = await this.anAccount();
      const section = this.random.pick(SINGLE_SECTIONS);
      const key = sectionKey(section, this.member(account));
      const patch = singlePatch(this.values(null), section, invalid);
      await createRecord(this.db, 'singles', { accountId: account.id, key, fields: patch });
      this.oracle.wrote(singleRef(account.id, key), patch, null);
    },
    createItem: async (invalid) => {
      const account = await this.anAccount();
      const section = this.random.pick(COLLECTION_SECTIONS);
      const key = sectionKey(section, this.member(account));
      const src = await this.valuesFor(account);
      const fields = newItem(src, section, invalid);
      // A Documents item takes a stored file's address, or a file chosen here that goes with it.
      const file =
        section.path === 'documents' && this.random.chance(0.5) ? chosenFile(src, 'any', false) : null;
      if (file) delete fields.file;
      const { id } = await createRecord(this.db, 'sectionItems', {
        accountId: account.id,
        section: key,
        fields,
        ...(file ? { files: { file } } : {}),
      });
      this.madeHere.set(id, this.madeHere.size);
      const ref = itemRef(id, key, account.id);
      this.oracle.created(ref, fields, this.markerIn(markerOf(key, fields)));
      if (file) this.oracle.fileChosen(ref, 'file', file.name);
    },
    editItem: async (invalid) => {
      const account = await this.anAccount();
      const row = await this.anItem(account.id, false);
      if (!row) return;
      const patch = itemPatch(await this.valuesFor(account, row.id), sectionOf(row), invalid);
      await updateRecord(this.db, 'sectionItems', row.id, patch);
      this.oracle.wrote(
        itemRef(row.id, row.section, account.id),
        patch,
        this.markerIn(markerOf(row.section, patch)),
      );
    },
    deleteItem: async () => {
      const account = await this.anAccount();
      const row = await this.anItem(account.id, false);
      if (!row) return;
      await deleteRecord(this.db, 'sectionItems', row.id);
      this.oracle.deleted(itemRef(row.id, row.section, account.id), row.serverId);
    },
    upload: async (invalid) => {
      const target = await this.aFileField();
      if (!target) return;
      const file = chosenFile(this.values(null), target.kind, invalid);
      await queueUpload(this.db, { ...target.file, file });
      this.oracle.fileChosen(target.ref, target.file.field, file.name);
    },
    removeFile: async () => {
      const target = await this.aFileField();
      if (!target) return;
      await queueRemoveFile(this.db, target.file);
      this.oracle.fileChosen(target.ref, target.file.field, null);
    },
    sendEngagement: async () => {
      const account = await this.anAccount();
      const member = this.member(account);
      const templateId = this.random.pick(this.templates);
      const r = this.random;
      await queueSendEngagement(this.db, {
        accountId: account.id,
        member,
        templateId,
        emailNew: r.chance(0.5),
        emailReminders: r.chance(0.5),
        emailCompleted: r.chance(0.5),
      });
      this.engagements.sent(account.id, member, templateId);
      this.oracle.note('accounts', account.id, `sends the questionnaire ${templateId} to the ${member}`);
    },
    closeEngagement: async () => {
      const id = await this.anEngagement();
      if (!id) return;
      await queueCloseEngagement(this.db, id);
      this.engagements.wished(id, 'COMPLETED');
    },
    reopenEngagement: async () => {
      const id = await this.anEngagement();
      if (!id) return;
      await queueReopenEngagement(this.db, id);
      this.engagements.wished(id, 'NEW');
    },
    sendForm: async () => {
      const account = await this.anAccount();
      const recipients: MemberRole[] =
        hasCoclient(account) && this.random.chance(0.3) ? ['client', 'coclient'] : [this.member(account)];
      const templateKey = this.random.pick(this.templateKeys);
      await queueSendForm(this.db, { accountId: account.id, templateKey, recipients });
      this.forms.sent(account.id, recipients, templateKey);
      this.oracle.note(
        'accounts',
        account.id,
        `sends the form ${templateKey} to the ${recipients.join(' and ')}`,
      );
    },
    resendForm: async () => {
      const id = await this.aForm();
      if (!id) return;
      if ((await queueResendForm(this.db, id)).opId) this.forms.resent();
    },
    closeForm: async () => {
      const id = await this.aForm();
      if (!id) return;
      await queueCloseForm(this.db, id);
      this.forms.closing(id);
    },
  };

  /** A form this computer holds (those sent here, once the platform made them). */
  private async aForm(): Promise<string | undefined> {
    const ids = await this.db.forms.toCollection().primaryKeys();
    return ids.length > 0 ? this.random.pick(ids) : undefined;
  }

  /** An engagement this computer holds (those sent here, once the platform made them). */
  private async anEngagement(): Promise<string | undefined> {
    const ids = await this.db.engagements.toCollection().primaryKeys();
    return ids.length > 0 ? this.random.pick(ids) : undefined;
  }

  /** A file field of its own: a member's photo or driver's-license document, or an employment item's document. */
  private async aFileField(): Promise<{ file: FileRef; ref: RecordRef; kind: 'image' | 'document' } | null> {
    const account = await this.anAccount();
    const r = this.random;
    if (r.chance(0.3)) {
      const jobs = (await this.db.sectionItems.where('accountId').equals(account.id).toArray()).filter(
        (row) => row.section.startsWith('employment:'),
      );
      if (jobs.length === 0) return null;
      const job = r.pick(jobs);
      const file: FileRef = { table: 'sectionItems', recordId: job.id, field: 'document' };
      return { file, ref: itemRef(job.id, job.section, account.id), kind: 'document' };
    }
    const key = `details:${this.member(account)}`;
    const ref = singleRef(account.id, key);
    const photo = r.chance(0.5);
    const field = photo ? 'photo' : 'drivers_license.document';
    return { file: { table: 'singles', recordId: ref.id, field }, ref, kind: photo ? 'image' : 'document' };
  }

  /** The details and an employment of a co-client just added here (not on the platform yet). */
  private async newCoclientData(accountId: string): Promise<void> {
    const key = 'details:coclient';
    const details = detailsPatch(this.values(null), false);
    await createRecord(this.db, 'singles', { accountId, key, fields: details });
    this.oracle.wrote(singleRef(accountId, key), details, null);
    const employment = COLLECTION_SECTIONS.find((section) => section.path === 'employment')!;
    const fields = newItem(this.values(null), employment, false);
    const section = sectionKey(employment, 'coclient');
    const { id } = await createRecord(this.db, 'sectionItems', { accountId, section, fields });
    this.madeHere.set(id, this.madeHere.size);
    this.oracle.created(itemRef(id, section, accountId), fields, this.markerIn(markerOf(section, fields)));
  }

  /** Records an account edit; converting moves the account to the first stage of its new pipeline. */
  private wroteAccount(id: string, patch: Fields): void {
    this.oracle.wrote(accountRef(id), patch, this.markerIn(patch['client.email']));
    if ('type' in patch && !('pipeline.id' in patch))
      this.oracle.of(accountRef(id)).fields.delete('pipeline.id');
  }

  /** The marker a written value carries: a marker handed out, or an email made of one. */
  private markerIn(value: unknown): Marker | null {
    if (typeof value === 'number') return this.issued.has(value) ? value : null;
    if (typeof value !== 'string') return null;
    return this.issued.has(value.replace(/@example\.com$/, '')) ? value : null;
  }

  private async anAccount(): Promise<AccountRow> {
    const account = await this.db.accounts.get(this.random.pick(this.scope));
    if (!account) throw new ChangeRefused('The account is not in the local store.');
    return account;
  }

  /** A member of the account, as the screen shows it: the co-client once added, even here only. */
  private member(account: AccountRow): MemberRole {
    return hasCoclient(account) && this.random.chance(0.4) ? 'coclient' : 'client';
  }

  private stages(account: AccountRow): string[] {
    const type = account.fields.type === 'PROSPECT' ? 'PROSPECT' : 'CLIENT';
    return this.platform.control
      .dump()
      .pipelines.filter((p) => p.type === type)
      .map((p) => p.id);
  }

  /** An item of the account, not being deleted; with `onServer`, one the platform has. */
  private async anItem(accountId: string, onServer: boolean): Promise<SectionItemRow | undefined> {
    const rows = (await this.db.sectionItems.where('accountId').equals(accountId).toArray()).filter(
      (row) => !onServer || row.serverId !== null,
    );
    for (let tries = 0; tries < 5 && rows.length > 0; tries++) {
      const row = this.random.pick(rows);
      const last = (await recordOps(this.db, 'sectionItems', row.id)).at(-1);
      if (last?.kind !== 'delete') return row;
    }
    return undefined;
  }

  /** Where values come from; relations to the given people and items (none given: the client only). */
  private values(relations: ItemRelation[] | null, people: LocalRelation[] = []): ValueSource {
    return {
      random: this.random,
      marker: () => this.issue(`mk${++this.markers}`) as string,
      markerNumber: () => this.issue(1_000_000 + ++this.markers + 0.25) as number,
      relations: (personOnly) =>
        relations === null
          ? [{ type: 'client', id: null }]
          : [...people, ...relations.filter((rel) => !personOnly || PERSON_SECTIONS.has(rel.section))].map(
              ({ type, id }) => ({ type, id }),
            ),
      fileUrl: () => this.random.pick(this.fileUrls),
    };
  }

  private issue(marker: Marker): Marker {
    this.issued.add(marker);
    return marker;
  }

  /**
   * Values for a record of this account (`recordId`, or a new one): relations to its people and
   * its items. An item not on the server yet is offered only to records made after it: a create
   * waits for the items it names, so a relation back would make both wait for ever (a cycle the
   * forms never offer).
   */
  private async valuesFor(account: AccountRow, recordId: string | null = null): Promise<ValueSource> {
    const made = (id: string) => this.madeHere.get(id) ?? -1;
    const rows = (await this.db.sectionItems.where('accountId').equals(account.id).toArray()).filter(
      (row) =>
        row.id !== recordId && (row.serverId !== null || recordId === null || made(row.id) < made(recordId)),
    );
    const people: LocalRelation[] = ['client', 'children', 'grandchildren'].map((type) => ({
      type,
      id: null,
    }));
    if (hasCoclient(account)) people.push({ type: 'coclient', id: null }, { type: 'joint', id: null });
    const items = rows.map((row): ItemRelation => {
      const path = row.section.split(':')[0]!;
      return { type: ENTITY_OF.get(path)!, id: row.id, section: path };
    });
    return this.values(items, people);
  }

  // ---- The assistant, through the platform's API ----

  /** One change by the assistant to a record the advisor has; one attempt, faults and all. */
  private async theirChange(): Promise<void> {
    const account = await this.anAccount().catch(() => null);
    if (typeof account?.serverId !== 'number') return;
    const kind = weighted(this.random, THEIR_CHANGES);
    await this.theirs[kind](account, account.serverId);
  }

  private readonly theirs: Record<
    keyof typeof THEIR_CHANGES,
    (account: AccountRow, serverId: number) => Promise<void>
  > = {
    editAccount: async (account, serverId) => {
      const r = this.random;
      const patch = r.pick<() => Fields>([
        () => ({ 'client.first_name': `${r.pick(['Al', 'Di', 'Ed'])}-theirs` }),
        () => ({ 'client.last_name': `Theirs${r.int(1, 99)}` }),
        () => ({ 'client.phone.number': r.digits(10) }),
        () => ({ favorited: r.chance(0.5) }),
      ])();
      this.oracle.othersChanged(accountRef(account.id), Object.keys(patch));
      await this.asAssistant(
        { api: 'v2', method: 'POST', path: `/accounts/${serverId}`, body: patch },
        accountRef(account.id),
      );
    },
    editDetails: async (account, serverId) => {
      const member = this.member(account);
      const patch = detailsPatch(this.values(null), false);
      const ref = singleRef(account.id, `details:${member}`);
      this.oracle.othersChanged(ref, Object.keys(patch));
      await this.asAssistant(
        { api: 'v0', method: 'PUT', path: `/accounts/${serverId}/${member}/details`, body: unflatten(patch) },
        ref,
      );
    },
    editSingle: async (account, serverId) => {
      const section = this.random.pick(SINGLE_SECTIONS);
      const member = this.member(account);
      const patch = singlePatch(this.values(null), section, false);
      const ref = singleRef(account.id, sectionKey(section, member));
      this.oracle.othersChanged(ref, Object.keys(patch));
      await this.asAssistant(
        { api: 'v0', method: 'POST', path: sectionPath(section, serverId, member), body: patch },
        ref,
      );
    },
    createItem: async (account, serverId) => {
      const section = this.random.pick(COLLECTION_SECTIONS);
      const body = newItem(this.values(null), section, false);
      await this.asAssistant({
        api: 'v0',
        method: 'POST',
        path: sectionPath(section, serverId, this.member(account)),
        body,
      });
    },
    editItem: async (account, serverId) => {
      const row = await this.anItem(account.id, true);
      const section = row && sectionOf(row);
      if (!row || !section || section.path === 'documents') return;
      const patch = itemPatch(this.values(null), section, false);
      delete patch[MARKER_FIELD[section.path]!];
      if (Object.keys(patch).length === 0) return;
      const ref = itemRef(row.id, row.section, account.id);
      this.oracle.othersChanged(ref, Object.keys(patch));
      await this.asAssistant({ api: 'v0', method: 'PUT', path: itemPath(row, serverId), body: patch }, ref);
    },
    deleteItem: async (account, serverId) => {
      const row = await this.anItem(account.id, true);
      if (!row) return;
      const ref = itemRef(row.id, row.section, account.id);
      const section = sectionOf(row);
      const files = section ? fieldsOfKind(section, 'file') : [];
      const heldThere = files.filter((f) => row.fields[f] && !isPendingFile(row.fields[f]));
      this.oracle.othersDeleted(ref, row.serverId!, heldThere);
      await this.asAssistant({ api: 'v0', method: 'DELETE', path: itemPath(row, serverId) }, ref);
    },
  };

  /** The assistant's requests meet the same faults; a failed one is simply not tried again. */
  private async asAssistant(req: ApiRequest, ref?: RecordRef): Promise<void> {
    const res = await this.assistant.transport.request(req);
    if (ref)
      this.oracle.note(ref.table, ref.id, `the assistant's ${req.method}: ${res.ok ? 'done' : res.message}`);
  }

  // ---- The user answers what the engine asks ----

  /** One open conflict, answered as a user would: mine, theirs, or field by field. */
  private async answerConflict(): Promise<boolean> {
    const conflicts = await this.db.conflicts.toArray();
    if (conflicts.length === 0) return false;
    const conflict = this.random.pick(conflicts);
    const r = this.random;
    const intent = this.oracle.find(conflict.table, conflict.recordId);
    const deleted = DELETED_ON_SERVER in conflict.fields;
    // A conflict is real only where someone else changed the record.
    if (
      deleted
        ? !intent?.othersDeleted
        : Object.keys(conflict.fields).some((f) => !intent?.othersFields.has(f))
    )
      this.problem(
        `a conflict nobody caused on ${conflict.table} ${conflict.recordId}: ${JSON.stringify(conflict.fields)}`,
      );
    const choice: ConflictChoice = deleted
      ? r.pick(['mine', 'theirs'] as const)
      : r.pick<() => ConflictChoice>([
          () => 'mine',
          () => 'theirs',
          () =>
            Object.fromEntries(
              Object.keys(conflict.fields).map((f) => [f, r.pick(['mine', 'theirs'] as const)]),
            ),
        ])();
    try {
      await resolveConflict(this.db, conflict.id, choice);
    } catch (error) {
      if (error instanceof ChangeRefused) return false; // answered meanwhile
      throw error;
    }
    this.oracle.note(
      conflict.table,
      conflict.recordId,
      `answered ${JSON.stringify(choice)} to ${JSON.stringify(conflict.fields)}`,
    );
    if (deleted && intent) this.oracle.deletedOnServerAnswered(intent, choice === 'mine');
    return true;
  }

  /** One refused change, fixed with valid values as a user would; a create that keeps failing is discarded. */
  private async fixRefused(): Promise<boolean> {
    const refused = await this.db.outbox.where('state').equals('rejected').toArray();
    if (refused.length === 0) return false;
    const op = this.random.pick(refused);
    const tries = (this.fixes.get(op.id) ?? 0) + 1;
    this.fixes.set(op.id, tries);
    this.oracle.note(op.table, op.recordId, `fixes the refused ${op.kind} ${JSON.stringify(op.fields)}`);
    try {
      await this.fix(op, tries);
    } catch (error) {
      if (!(error instanceof ChangeRefused)) throw error;
    }
    return true;
  }

  private async fix(op: Operation, tries: number): Promise<void> {
    // A questionnaire the platform refused (its account or member gone there): the user takes it back.
    if (isFormOp(op)) {
      await discardFormChange(this.db, op.id);
      if (op.kind === 'sendForm')
        this.forms.sent(op.recordId, op.fields.recipients as string[], String(op.fields.template_key), -1);
      else if (op.kind === 'resendForm') this.forms.resent(-1);
      else this.forms.closing(String(op.fields.form), false);
      return;
    }
    if (isEngagementOp(op)) {
      await discardEngagementChange(this.db, op.id);
      if (op.kind === 'sendEngagement')
        this.engagements.sent(op.recordId, String(op.fields.member), String(op.fields.template_id), -1);
      else this.engagements.forget(String(op.fields.engagement));
      return;
    }
    const row = (await this.db.table(op.table).get(op.recordId)) as AnyRow | undefined;
    if (!row) return;
    // What the user corrects: the fields of the change, and those the platform's messages name
    // (a value stored earlier may be what no longer fits, as a US state once the country is US).
    const named = Object.keys(op.lastError?.fields ?? {}).map((field) => field.replace(/-/g, '_'));
    const fields = { ...Object.fromEntries(named.map((field) => [field, null])), ...op.fields };
    if (op.kind === 'upload' && op.lastError?.kind !== 'not-found') {
      // Another file, of the right kind this time.
      const field = Object.keys(op.fields)[0]!;
      const file = chosenFile(this.values(null), field === 'photo' ? 'image' : 'document', false);
      await queueUpload(this.db, { table: op.table as FileRef['table'], recordId: op.recordId, field, file });
      const { accountId, key, section } = row as { accountId: string; key?: string; section?: string };
      const ref =
        op.table === 'singles' ? singleRef(accountId, key!) : itemRef(op.recordId, section!, accountId);
      return this.oracle.fileChosen(ref, field, file.name);
    }
    if (op.table === 'accounts') {
      const patch = fixedAccountFields(this.values(null), fields, this.stages(row as AccountRow));
      await updateRecord(this.db, 'accounts', op.recordId, patch);
      return this.wroteAccount(op.recordId, patch);
    }
    if (op.table === 'singles') {
      const { accountId, key } = row as { accountId: string; key: string };
      const found = sectionOfKey(key);
      const patch = found
        ? fixedItemFields(this.values(null), found.section, fields)
        : fixedDetails(this.values(null), fields);
      await updateRecord(this.db, 'singles', op.recordId, patch);
      return this.oracle.wrote(singleRef(accountId, key), patch, null);
    }
    const item = row as SectionItemRow;
    const ref = itemRef(item.id, item.section, item.accountId);
    // Gone from the platform (an upload to an item deleted there is refused): the user lets it go.
    const gone = op.lastError?.kind === 'not-found';
    if (gone || (op.kind === 'create' && (tries > 2 || this.random.chance(0.3)))) {
      await deleteRecord(this.db, 'sectionItems', item.id);
      return this.oracle.deleted(ref, item.serverId);
    }
    const patch = fixedItemFields(this.values(null), sectionOf(item), fields);
    await updateRecord(this.db, 'sectionItems', item.id, patch);
    this.oracle.wrote(ref, patch, this.markerIn(markerOf(item.section, patch)));
  }

  // ---- Settling ----

  /** Faults off, signed in, every conflict answered and refusal fixed, pushed until nothing is left; then a full pull. */
  private async settle(): Promise<void> {
    this.platform.control.setFaults({ probability: 0, queue: [] });
    if (this.signedOut) await this.signIn();
    await this.life.idle();
    for (let round = 0; round < 30; round++) {
      this.clock.advance(60 * 60_000);
      await this.life.push.rearm();
      await this.life.push.run();
      while (await this.answerConflict()) {
        // every open conflict gets its answer
      }
      for (let i = await this.db.outbox.where('state').equals('rejected').count(); i > 0; i--)
        await this.fixRefused();
      if ((await this.db.outbox.count()) === 0) break;
    }
    await this.life.pull.pullAccountList({ full: true });
    for (const id of this.scope) await this.life.pull.pullAccount(id, { priority: 'interactive' });
  }
}

const accountRef = (id: string): RecordRef => ({ table: 'accounts', id, key: '', accountId: id });
const singleRef = (accountId: string, key: string): RecordRef => ({
  table: 'singles',
  id: `${accountId}:${key}`,
  key,
  accountId,
});
const itemRef = (id: string, key: string, accountId: string): RecordRef => ({
  table: 'sectionItems',
  id,
  key,
  accountId,
});

const sectionOf = (row: SectionItemRow): SectionDescriptor => sectionOfKey(row.section)!.section;

/** The co-client as the screen shows it: on the platform, or added here. */
const hasCoclient = (account: AccountRow) =>
  account.meta.coclientId !== null || account.fields['coclient.email'] != null;

/** A push event in a few words, for the story of a record. */
function describe(event: PushEvent & { recordId: string }): string {
  if (event.type === 'synced') return event.adopted ? 'synced (adopted)' : 'synced';
  if (event.type === 'retry' || event.type === 'rejected') return `${event.type}: ${event.error.message}`;
  return event.type === 'conflict'
    ? `conflict${event.deletedOnServer ? ' (deleted there)' : ''}`
    : event.type;
}

function itemPath(row: SectionItemRow, accountServerId: number): string {
  const found = sectionOfKey(row.section)!;
  return `${sectionPath(found.section, accountServerId, found.member)}/${encodeURIComponent(String(row.serverId))}`;
}
