// Preparing for a meeting: the households the advisor chose are kept offline and pulled whole, one
// after another at interactive priority (ahead of the background's pulls), each with its progress.
// A household is ready offline only when its whole pull completed here and its stored files (photos,
// documents) are kept by the main process for offline use; without the platform it waits, and goes
// once the platform can be reached again (`resume`). The list is kept in the store (prepared.ts):
// after a restart it is read back, its readiness taken from what the store holds, and what was
// still waiting goes on.

import type { KeepFilesResult, StoredFileRequest } from '@shared/bridge.ts';
import { sectionForm } from '@shared/section-forms/build.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { fullyHere } from '../../data/coverage.ts';
import { accountLabel } from '../../data/labels.ts';
import { householdPreviews } from '../../data/engagement-previews.ts';
import { accountFiles, firmLogoFile } from '../../data/stored-files.ts';
import { accountPullRequests } from '../pull/account-data.ts';
import { membersOf } from '../pull/account-parts.ts';
import type { PullFailure, PullProgress, PullReport } from '../pull/index.ts';
import { preparedSteps, writePrepared } from './prepared.ts';
import type { HouseholdStep } from './state.ts';

export interface PreparationHost {
  db: AdvisorDb;
  now(): number;
  /** Whether requests may go now (a network, the store's user signed in, no sign-in needed). */
  canPull(): Promise<boolean>;
  /** One household's whole pull at interactive priority, with its requests answered of sent. */
  pull(localId: string, onProgress: (p: PullProgress) => void): Promise<PullReport>;
  /** The households moved. */
  changed(): void;
  /**
   * Keeps files in the signed-in user's offline cache (`bridge().files.keep`); absent (Node tests
   * of the pull alone, the chaos runner): a household's files are not kept.
   */
  keepFiles?: (files: StoredFileRequest[]) => Promise<KeepFilesResult>;
}

/** Failures that say nothing of the household: the platform was not reached, or not signed in to. */
const NOT_REACHED = new Set<string>(['network', 'timeout', 'auth']);

export class MeetingPreparation {
  private steps: HouseholdStep[] = [];
  /** When each household was chosen (ms), kept with the list. */
  private chosenAt = new Map<string, number>();
  /** When each household became ready offline (ms), kept with the list. */
  private readyAt = new Map<string, number>();
  private running: Promise<void> | null = null;
  private loaded: Promise<void> | null = null;
  /** The list's writes, one after another, so that the last one stays. */
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly host: PreparationHost) {}

  /** The households chosen, in the order they go, with their states. */
  get households(): HouseholdStep[] {
    return this.steps.map((s) => ({ ...s }));
  }

  /**
   * Adds households (local account ids) to the preparation, marked to be kept offline, and pulls
   * them in turn. Every household prepared stays listed, ready or not, until the advisor clears
   * the list (`clearFinished`); one already waiting or under way keeps its place.
   */
  async prepare(ids: readonly string[]): Promise<void> {
    await this.restore();
    for (const id of new Set(ids)) {
      const account = await this.host.db.accounts.get(id);
      if (!account) continue;
      await this.host.db.accounts.update(id, { availableOffline: 1 });
      const step = this.steps.find((s) => s.accountId === id);
      const total = accountPullRequests(membersOf(account.meta));
      const fresh: HouseholdStep = {
        accountId: id,
        label: accountLabel(account),
        purpose: 'meeting',
        state: 'waiting',
        done: 0,
        total,
        reason: null,
        files: null,
      };
      // Chosen again once done: prepared anew, from now.
      if (!step || !unfinished(step)) {
        this.chosenAt.set(id, this.host.now());
        this.readyAt.delete(id);
      }
      if (!step) this.steps.push(fresh);
      else if (!unfinished(step)) Object.assign(step, fresh);
    }
    this.changedList();
    await this.resume();
  }

  /** A failed household is tried again (at the end of the queue). */
  async retry(id: string): Promise<void> {
    await this.restore();
    const step = this.steps.find((s) => s.accountId === id);
    if (!step || step.state !== 'failed') return;
    this.steps = [
      ...this.steps.filter((s) => s !== step),
      { ...step, state: 'waiting', done: 0, reason: null, files: null },
    ];
    this.changedList();
    await this.resume();
  }

  /** Forgets the households that are done (ready or failed): the preparation ends. */
  async clearFinished(): Promise<void> {
    await this.restore();
    this.steps = this.steps.filter(unfinished);
    this.changedList();
    await this.saving;
  }

  /** Pulls the waiting households in turn, when the platform may be asked; one run at a time. */
  resume(): Promise<void> {
    this.running ??= this.drain().finally(() => (this.running = null));
    return this.running;
  }

  /**
   * Reads the list kept in the store, once, before anything changes it: each household as the
   * store has it now (one gone from here leaves the list).
   */
  restore(): Promise<void> {
    this.loaded ??= preparedSteps(this.host.db).then(
      (kept) => {
        for (const { step, preparedAt, readyAt } of kept) {
          if (this.steps.some((s) => s.accountId === step.accountId)) continue;
          this.steps.push(step);
          this.chosenAt.set(step.accountId, preparedAt);
          if (readyAt !== null) this.readyAt.set(step.accountId, readyAt);
        }
        if (kept.length > 0) this.host.changed();
      },
      // Unreadable, the kept list is not shown; preparing goes on, and its next change rewrites it.
      (error: unknown) => console.error('The prepared households could not be read.', error),
    );
    return this.loaded;
  }

  /** Resolves once the list as it is now is written. */
  saved(): Promise<void> {
    return this.saving;
  }

  private async drain(): Promise<void> {
    await this.restore();
    for (;;) {
      const step = this.steps.find((s) => s.state === 'waiting');
      if (!step || !(await this.host.canPull())) return;
      if (!(await this.pullOne(step))) return;
    }
  }

  /** One household's pull; false when the platform could not be reached (the run pauses). */
  private async pullOne(step: HouseholdStep): Promise<boolean> {
    const started = this.host.now();
    this.update(step, { state: 'getting', done: 0 });
    let report: PullReport;
    try {
      report = await this.host.pull(step.accountId, (p) =>
        this.update(step, { done: p.done, total: Math.max(step.total, p.total ?? 0) }),
      );
    } catch (error) {
      this.update(step, { state: 'failed', reason: error instanceof Error ? error.message : String(error) });
      return true;
    }
    const unreached = report.failures.length > 0 && report.failures.every((f) => NOT_REACHED.has(f.kind));
    if (report.stopped || unreached) {
      this.update(step, { state: 'waiting', done: 0 });
      return false;
    }
    const account = await this.host.db.accounts.get(step.accountId);
    if (report.failures.length > 0)
      this.update(step, { state: 'failed', reason: failureWords(report.failures) });
    else if (!account) this.update(step, { state: 'failed', reason: 'It is no longer on the platform.' });
    else if (typeof account.serverId !== 'number')
      this.update(step, {
        state: 'failed',
        reason: 'It is not on the platform yet: it is sent with your changes, then it can be prepared.',
      });
    else if (account.pulledAt === null || account.pulledAt < started || !fullyHere(account))
      this.update(step, { state: 'failed', reason: 'Not everything of it arrived; try again.' });
    else return this.keepFiles(step);
    return true;
  }

  /**
   * The household's stored files into the offline cache, one at a time so that the step counts
   * them; ready once every one is kept. False when the platform could not be reached (it waits).
   */
  private async keepFiles(step: HouseholdStep): Promise<boolean> {
    const keep = this.host.keepFiles ?? null;
    const files = keep ? await accountFiles(this.host.db, step.accountId) : [];
    const failed: KeepFilesResult['failed'] = [];
    this.update(step, { done: step.total, files: { done: 0, total: files.length } });
    for (const [index, file] of files.entries()) {
      if (!keep) break;
      const request = { api: file.api, url: file.url, name: file.name, priority: 'interactive' as const };
      const answer = await keep([request]);
      failed.push(...answer.failed);
      this.update(step, { files: { done: index + 1, total: files.length } });
    }
    // Its completed questionnaires' previews, so that they show at the meeting offline: kept like
    // its files (ready only with them), not counted among the files the step names.
    if (keep)
      for (const preview of await householdPreviews(this.host.db, step.accountId))
        failed.push(...(await keep([{ ...preview, priority: 'interactive' }])).failed);
    // The firm's logo, for a summary written offline: kept beside the household's files, not
    // counted among them, and a summary without it is still whole if it cannot be had.
    const logo = keep && failed.length === 0 ? await firmLogoFile(this.host.db) : null;
    if (keep && logo) await keep([{ ...logo, priority: 'interactive' }]);
    if (failed.length > 0 && failed.every((f) => NOT_REACHED.has(f.error.kind))) {
      this.update(step, { state: 'waiting', done: 0, files: null });
      return false;
    }
    if (failed.length > 0) {
      const [first] = failed;
      const count = failed.length === 1 ? 'A file' : `${failed.length} files`;
      this.update(step, {
        state: 'failed',
        reason: `${count} could not be kept offline: ${first?.error.message ?? 'error'}`,
      });
    } else this.update(step, { state: 'ready', reason: null });
    return true;
  }

  private update(step: HouseholdStep, patch: Partial<HouseholdStep>): void {
    const before = step.state;
    Object.assign(step, patch);
    if (step.state === 'ready' && before !== 'ready') this.readyAt.set(step.accountId, this.host.now());
    // Progress is not kept: only what a restart should find (waiting, ready, failed).
    if (step.state !== before) this.changedList();
    else this.host.changed();
  }

  /** The list changed: shown, and kept in the store. */
  private changedList(): void {
    this.host.changed();
    const steps = this.steps.map((s) => ({ ...s, files: s.files ? { ...s.files } : null }));
    const times = { chosenAt: new Map(this.chosenAt), readyAt: new Map(this.readyAt) };
    // A write that fails leaves the list shown here as it is; the next change writes it whole.
    this.saving = this.saving
      .then(() => writePrepared(this.host.db, steps, times, this.host.now()))
      .catch((error: unknown) => console.error('The prepared households could not be kept.', error));
  }
}

const unfinished = (s: HouseholdStep) => s.state === 'waiting' || s.state === 'getting';

/** "Assets could not be fetched: The platform had a problem." and how many more parts failed. */
export function failureWords(failures: readonly PullFailure[]): string {
  const [first] = failures;
  if (!first) return '';
  const more = failures.length - 1;
  const rest = more > 0 ? ` ${more} more ${more === 1 ? 'part' : 'parts'} failed too.` : '';
  return `${partName(first.path)} could not be fetched: ${first.message}${rest}`;
}

/** A part of an account pull named for the advisor, from its path ("Income of the co-client"). */
function partName(path: string): string {
  if (path.startsWith('/engagements')) return 'A questionnaire the household answered';
  const [, member, part = ''] = /^\/accounts\/[^/]+\/?(?:(client|coclient)\/)?(.*)$/.exec(path) ?? [];
  const named: Record<string, string> = {
    '': 'The account',
    details: 'Member details',
    security: 'Form access',
    profile: 'The profile',
    activity: 'Activity',
  };
  const title = sectionForm(part)?.title ?? named[part] ?? part;
  return member ? `${title} of the ${member === 'coclient' ? 'co-client' : 'client'}` : title;
}
