// The one object through which the renderer reaches the outside world (`window.advisor`).
// The preload implements it over IPC, the browser preview over HTTP, tests in memory.

import type { ApiFailure, ApiRequest, ApiResult } from './api/request.ts';
import type { AuthStatus, SignInOutcome, SignInStart, SignInTarget, StoreIdentity } from './auth.ts';
import type { DiagnosticsEntry } from './bridge-schema.ts';
import type { Preferences, ProfileInput, SettingsView } from './settings.ts';
import type { UpdateFeedResult, UpdateStatus } from './updates.ts';

export interface DownloadRequest {
  api: ApiRequest['api'];
  /** Path below the interface base, or an absolute url the interface returned (File.url …). */
  url: string;
  /** Name suggested by the server; it is sanitized before it touches the disk. */
  suggestedName: string;
  /** `cache` keeps it for offline viewing; `save` asks the user where to put it. */
  target: 'cache' | 'save';
  priority?: ApiRequest['priority'];
}

/** A picture of the platform to show (a member's photo), by the address its File object gives. */
export interface PreviewRequest {
  api: ApiRequest['api'];
  url: string;
  priority?: ApiRequest['priority'];
  /** Answer from this computer's copy alone (an export, written with no request): nothing is sent. */
  keptOnly?: boolean;
}

/**
 * The picture's bytes: from the signed-in user's cache when it was fetched before (offline too),
 * else fetched now and kept there; or why not.
 */
export type PreviewResult = { ok: true; bytes: Uint8Array } | { ok: false; error: ApiFailure | DiskFailure };

/**
 * A file could not be written where it was going (a folder that cannot be created, no permission,
 * a full disk): the platform is not at fault and trying the network again will not help.
 */
export interface DiskFailure extends Omit<ApiFailure, 'kind'> {
  kind: 'io';
}

export type DownloadResult =
  | { ok: true; path: string; bytes: number }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; error: ApiFailure | DiskFailure };

/**
 * A file the platform stores for an account (a member's photo or licence, an employment or
 * Documents item's file, a profile or engagement file), by the address its record gives.
 */
export interface StoredFileRequest {
  api: ApiRequest['api'];
  url: string;
  /** The file's name as its record gives it; made safe before it touches the disk. */
  name: string;
  priority?: ApiRequest['priority'];
  /** Offline: answer from this computer's copy alone; nothing is sent to the platform. */
  keptOnly?: boolean;
}

/**
 * The file opened in the system's viewer (`viewer`), or, where no viewer can be started (the
 * browser preview), saved at `path` (`saved`); `from` says whether this computer's copy served it.
 * `notKept`: offline and never downloaded here, so nothing was sent.
 */
export type OpenFileResult =
  | { ok: true; shown: 'viewer' | 'saved'; path: string; bytes: number; from: 'kept' | 'platform' }
  | { ok: false; notKept: boolean; error: ApiFailure | DiskFailure };

/**
 * A file saved by `files.save` opened with the system's viewer (`viewer`), or, where no viewer can
 * be started (the browser preview), left where it was saved (`saved`).
 */
export type OpenSavedResult =
  { ok: true; shown: 'viewer' | 'saved'; path: string } | { ok: false; error: ApiFailure | DiskFailure };

/** Files kept offline by `files.keep`: how many were here already or fetched now, and which failed. */
export interface KeepFilesResult {
  kept: number;
  fetched: number;
  failed: { url: string; error: ApiFailure | DiskFailure }[];
}

/** Whether this computer keeps a file offline, and its size in bytes when it does. */
export interface KeptFile {
  url: string;
  kept: boolean;
  bytes: number | null;
}

/** A download of a stored file under way in the main process: bytes so far, of the announced total. */
export interface FileTransfer {
  api: ApiRequest['api'];
  url: string;
  bytes: number;
  total: number | null;
}

/** A sign-in under way (the page to open), or why it could not start, in words the user can act on. */
export type SignInStartResult = ({ ok: true } & SignInStart) | { ok: false; message: string };

/**
 * Sign-out always forgets the tokens in memory; `ok: false` says what else went wrong (the saved
 * sign-in could not be removed from the system's secret store).
 */
export type SignOutResult =
  { ok: true; status: AuthStatus } | { ok: false; message: string; status: AuthStatus };

/** The identity is bound to the sign-in, or why not (nobody is signed in). */
export type BindIdentityResult =
  { ok: true; status: AuthStatus } | { ok: false; message: string; status: AuthStatus };

/**
 * A saved profile; or why not: the fields refused, each named, or the advisor declined to move the
 * app to other addresses (asked before saving), in which case nothing changed.
 */
export type SaveResult =
  | { ok: true; settings: SettingsView }
  | { ok: false; fields: Record<string, string[]> }
  | { ok: false; cancelled: true };

/** Where the diagnostics were saved, or why not, in words the user can act on. */
export type SaveDiagnosticsResult =
  | { ok: true; path: string }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; message: string };

/** An export under way: the file chosen (its final name), written to a temporary file beside it until finished. */
export type ExportBeginResult =
  | { ok: true; exportId: string; name: string }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; error: ApiFailure | DiskFailure };

/** Bytes written so far (progress), or why the export stopped (its temporary file is gone then). */
export type ExportWriteResult = { ok: true; bytes: number } | { ok: false; error: ApiFailure | DiskFailure };

/** Where the finished file is, or why it could not be put there (nothing is left behind then). */
export type ExportFinishResult =
  { ok: true; path: string; bytes: number } | { ok: false; error: ApiFailure | DiskFailure };

export interface Bridge {
  auth: {
    status(): Promise<AuthStatus>;
    beginSignIn(target: SignInTarget): Promise<SignInStartResult>;
    /** Resolves when the platform redirects back (or the flow fails, is cancelled or times out). */
    finishSignIn(flowId: string): Promise<SignInOutcome>;
    cancelSignIn(flowId: string): Promise<void>;
    /** Also cancels a sign-in still waiting in the browser, so it cannot complete afterwards. */
    signOut(): Promise<SignOutResult>;
    /**
     * Binds the identity whose store the renderer opens (read from the platform's user) to the
     * sign-in: kept with the tokens, forgotten with them. Refused while not signed in.
     */
    bindIdentity(identity: StoreIdentity): Promise<BindIdentityResult>;
  };
  api: {
    /** Never rejects: a request with invalid arguments is a `validation` failure naming them. */
    request<T = unknown>(request: ApiRequest): Promise<ApiResult<T>>;
  };
  files: {
    download(request: DownloadRequest): Promise<DownloadResult>;
    /** Never rejects: invalid arguments are a `validation` failure naming them. */
    preview(request: PreviewRequest): Promise<PreviewResult>;
    /** Removes the documents kept for offline viewing for one user key (this computer's copy). */
    forgetUser(user: string): Promise<{ ok: true } | { ok: false; message: string }>;
    /**
     * Opens a stored file with the system's viewer: this computer's copy when it keeps one, else
     * downloaded into the signed-in user's offline cache first. The preview saves it instead.
     */
    open(request: StoredFileRequest): Promise<OpenFileResult>;
    /** Saves a stored file where the user chooses (from this computer's copy when there is one). */
    save(request: StoredFileRequest): Promise<DownloadResult>;
    /** Opens a file `save` put at `path` in this run of the app (nothing else) with the system's viewer. */
    openSaved(path: string): Promise<OpenSavedResult>;
    /** Downloads files into the signed-in user's offline cache (those not there yet). */
    keep(requests: StoredFileRequest[]): Promise<KeepFilesResult>;
    /** Which of these files this computer keeps offline for the signed-in user; sends nothing. */
    kept(requests: Pick<StoredFileRequest, 'api' | 'url'>[]): Promise<KeptFile[]>;
    /** The signed-in user's downloads of stored files under way, for their progress. */
    transfers(): Promise<FileTransfer[]>;
  };
  exports: {
    /**
     * Asks where to save (Electron: the native dialog; the preview: its downloads folder, under a
     * free name). `suggestedName` ends in .pdf, .xlsx, .csv or .zip and is made safe here.
     */
    begin(suggestedName: string): Promise<ExportBeginResult>;
    /** Appends a chunk (at most EXPORT_CHUNK_BYTES) to the temporary file; one call at a time. */
    write(exportId: string, chunk: Uint8Array): Promise<ExportWriteResult>;
    /** Flushes to disk and renames into place: the file appears whole or not at all. */
    finish(exportId: string): Promise<ExportFinishResult>;
    /** Removes the temporary file; an existing file of the chosen name is left as it was. */
    cancel(exportId: string): Promise<void>;
  };
  settings: {
    get(): Promise<SettingsView>;
    saveProfile(profile: ProfileInput): Promise<SaveResult>;
    setPreferences(preferences: Preferences): Promise<SettingsView>;
  };
  updates: {
    /** The update address, whether this copy looks for updates, and the last check. */
    status(): Promise<UpdateStatus>;
    /** Saves the update address (https only; an empty one turns updates off), or names the field. */
    setFeed(address: string): Promise<UpdateFeedResult>;
  };
  diagnostics: {
    /** Adds a report of the sync to the diagnostics log: ids, counts, kinds and statuses only. */
    report(entry: DiagnosticsEntry): Promise<void>;
    /** Writes the recent log to a file the user chooses (the preview: its downloads folder). */
    save(): Promise<SaveDiagnosticsResult>;
  };
}
