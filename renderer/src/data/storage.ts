// What can go wrong with the local store, in words an advisor can act on (DESIGN.md §3, Storage):
// Dexie and IndexedDB errors are classified into a few kinds, each with a plain message and a way
// out. Nothing is half written: every change is one transaction (changes/), so a failed write
// leaves the record and the outbox as they were, and the message says so.

import Dexie from 'dexie';
import type { AdvisorDb } from './db.ts';

export type StorageProblemKind =
  /** The disk (or the browser's share of it) is full. */
  | 'quota'
  /** The data was written by a newer version of the app. */
  | 'version'
  /** No IndexedDB here: a private window, storage disabled, or a host without it. */
  | 'unavailable'
  /** The database could not be opened or upgraded. */
  | 'open-failed'
  /** The connection was closed under us (another window upgraded or deleted the database). */
  | 'closed';

export interface StorageProblem {
  kind: StorageProblemKind;
  /** What happened, in plain words. */
  message: string;
  /** The way out. */
  whatToDo: string;
}

/** A storage failure with its plain-words problem; `cause` is the Dexie or IndexedDB error. */
export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly problem: StorageProblem,
    options?: { cause?: unknown },
  ) {
    super(`${problem.message} ${problem.whatToDo}`, options);
  }
}

const N = Dexie.errnames;

/**
 * Error names of each kind, most specific kind first: the first kind any error of the chain names
 * wins (a DatabaseClosedError whose inner error is a failed open is a failed open; a transaction
 * aborted because the disk is full is a quota problem).
 */
const KINDS: readonly (readonly [StorageProblemKind, readonly string[]])[] = [
  // Firefox used its own name for the same condition before it adopted the standard one.
  ['quota', [N.QuotaExceeded, 'NS_ERROR_DOM_QUOTA_REACHED']],
  ['version', [N.Version]],
  // InvalidStateError on open is how private windows of some browsers refuse IndexedDB;
  // SecurityError where storage is disabled by a setting or a policy.
  ['unavailable', [N.MissingAPI, N.InvalidState, 'SecurityError']],
  // UnknownError is what Chromium reports for a damaged or unreadable backing store.
  ['open-failed', [N.OpenFailed, N.Upgrade, N.Unknown, N.NoSuchDatabase]],
  ['closed', [N.DatabaseClosed, N.VersionChange]],
];

const WORDS: Record<StorageProblemKind, Omit<StorageProblem, 'kind'>> = {
  quota: {
    message: 'There is no room left on this computer to save your work; the last change was not saved.',
    whatToDo:
      'Free some disk space (empty the trash, remove large downloads), then try again. Nothing was half saved: everything saved before is safe.',
  },
  version: {
    message: 'The data on this computer was saved by a newer version of Advisor Desk.',
    whatToDo:
      'Install the latest version of Advisor Desk. Your data and any changes not yet sent stay on this computer until then.',
  },
  unavailable: {
    message: 'Advisor Desk cannot keep data on this computer in this window.',
    whatToDo:
      'If this is a private or incognito browser window, open Advisor Desk in a normal window. Otherwise close Advisor Desk and start it again.',
  },
  'open-failed': {
    message: 'Advisor Desk could not open the data it keeps on this computer.',
    whatToDo:
      'Close every Advisor Desk window and start it again; if that does not help, restart the computer. Do not delete the app data: it may hold changes not yet sent.',
  },
  closed: {
    message: 'The data on this computer was closed by another Advisor Desk window, usually after an update.',
    whatToDo: 'Reload this window. Nothing that was saved is lost.',
  },
};

/** The names along an error's chain: itself, Dexie's `inner`, `cause`, and a bulk error's failures. */
function chainNames(error: unknown, seen = new Set<unknown>()): string[] {
  if (typeof error !== 'object' || error === null || seen.has(error)) return [];
  seen.add(error);
  const e = error as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown };
  const names = typeof e.name === 'string' ? [e.name] : [];
  const failures: unknown[] = Array.isArray(e.failures) ? e.failures : [];
  for (const next of [e.inner, e.cause, ...failures]) names.push(...chainNames(next, seen));
  return names;
}

/** The storage problem an error stands for, or null when it is not one (a bug, a refused change …). */
export function storageProblem(error: unknown): StorageProblem | null {
  if (error instanceof StorageError) return error.problem;
  const names = new Set(chainNames(error));
  // Dexie names its errors `XError`; DOMExceptions from IndexedDB use the same names.
  const kind = KINDS.find(([, list]) => list.some((name) => names.has(name)))?.[0];
  return kind ? { kind, ...WORDS[kind] } : null;
}

/**
 * Runs a write (or any work on the store) and turns a storage failure into a StorageError that
 * carries the plain-words problem. Other errors pass through unchanged.
 */
export async function withStorage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const problem = storageProblem(error);
    throw problem && !(error instanceof StorageError) ? new StorageError(problem, { cause: error }) : error;
  }
}

export type OpenResult = { ok: true } | { ok: false; problem: StorageProblem; error: unknown };

/**
 * Opens the database (running any schema migration) with a clear answer. Errors that are not
 * storage problems are thrown: they are bugs, not something the user can fix.
 */
export async function openStorage(db: AdvisorDb): Promise<OpenResult> {
  try {
    await db.open();
    return { ok: true };
  } catch (error) {
    const problem = storageProblem(error);
    if (!problem) throw error;
    return { ok: false, problem, error };
  }
}
