// The Bridge in the browser preview: every call is a POST to the host that served this page, below
// the page's own path (the host's per-run prefix), so the browser sends the host's cookie, which
// is bound to that path. The page holds no key. Platform calls take a lane by priority (lanes.ts).

import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type {
  Bridge,
  DownloadRequest,
  DownloadResult,
  KeepFilesResult,
  OpenFileResult,
  PreviewRequest,
  PreviewResult,
  StoredFileRequest,
} from '@shared/bridge.ts';
import { BYTES_RESULTS, decodeBridgeArgs, encodeBridgeArgs } from '@shared/bridge-wire.ts';
import { cancelledAnswer } from '../../sync/send.ts';
import { BridgeLanes } from './lanes.ts';

export class BridgeUnavailable extends Error {}

/** `page`: the address of the page's folder, ending in a slash (the host's per-run prefix). */
export function createHttpBridge(page = pageFolder()): Bridge {
  const lanes = new BridgeLanes();
  async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${page}__bridge/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(encodeBridgeArgs(args)),
      });
    } catch {
      throw new BridgeUnavailable(
        'The preview host is not running. Start it again with npm run web and reload this page.',
      );
    }
    const answer = (await res.json().catch(() => ({}))) as { value?: T; error?: string };
    if (!res.ok) throw new BridgeUnavailable(answer.error ?? `The preview host answered ${res.status}.`);
    return (BYTES_RESULTS.has(channel) ? decodeBridgeArgs(answer.value) : answer.value) as T;
  }
  const method =
    <T>(channel: string) =>
    (...args: unknown[]) =>
      call<T>(channel, ...args);
  /** A save the host may have to confirm with the advisor first (a move to other servers). */
  const asking =
    <T>(channel: string) =>
    (...args: unknown[]) =>
      answeringQuestions(page, () => call<T>(channel, ...args));
  return {
    auth: {
      status: method('auth.status'),
      beginSignIn: method('auth.beginSignIn'),
      finishSignIn: method('auth.finishSignIn'),
      cancelSignIn: method('auth.cancelSignIn'),
      // Calls still waiting for a lane belong to the session that ends: none goes out after it.
      signOut: () => {
        lanes.dropWaiting();
        return call('auth.signOut');
      },
      bindIdentity: method('auth.bindIdentity'),
    },
    api: {
      request: <T>(req: ApiRequest) =>
        lanes.run<ApiResult<T>>(req?.priority, () => call('api.request', req), cancelledAnswer),
    },
    files: {
      download: (req: DownloadRequest) =>
        lanes.run<DownloadResult>(
          req?.priority,
          () => call('files.download', req),
          () => ({
            ok: false,
            cancelled: true,
          }),
        ),
      preview: (req: PreviewRequest) =>
        lanes.run<PreviewResult>(
          req?.priority,
          () => call('files.preview', req),
          () => ({ ok: false, error: cancelledAnswer() }),
        ),
      forgetUser: method('files.forgetUser'),
      open: (req: StoredFileRequest) =>
        lanes.run<OpenFileResult>(
          req?.priority,
          () => call('files.open', req),
          () => ({ ok: false, notKept: false, error: cancelledAnswer() }),
        ),
      save: (req: StoredFileRequest) =>
        lanes.run<DownloadResult>(
          req?.priority,
          () => call('files.save', req),
          () => ({ ok: false, cancelled: true }),
        ),
      keep: (reqs: StoredFileRequest[]) =>
        lanes.run<KeepFilesResult>(
          reqs?.[0]?.priority,
          () => call('files.keep', reqs),
          () => ({ kept: 0, fetched: 0, failed: [] }),
        ),
      // Answered from the main process's disk alone: no lane, as nothing waits for the platform.
      kept: method('files.kept'),
      openSaved: method('files.openSaved'),
      transfers: method('files.transfers'),
    },
    exports: {
      begin: method('exports.begin'),
      write: method('exports.write'),
      finish: method('exports.finish'),
      cancel: method('exports.cancel'),
    },
    settings: {
      get: method('settings.get'),
      saveProfile: asking('settings.saveProfile'),
      setPreferences: method('settings.setPreferences'),
    },
    updates: {
      status: method('updates.status'),
      setFeed: asking('updates.setFeed'),
    },
    diagnostics: {
      report: method('diagnostics.report'),
      save: method('diagnostics.save'),
    },
  };
}

/** A question of the host (electron/preview/questions.ts): Electron's native dialog, in a page. */
interface HostQuestion {
  id: string;
  title: string;
  message: string;
  detail: string;
  agree: string;
}

/**
 * Runs `save` while answering the host's questions: the preview's stand-in for the native dialog
 * Electron shows before a save that moves the app to other servers is the browser's own confirm
 * dialog, with the same words. Its OK agrees; Cancel (or a closed dialog) saves nothing.
 */
async function answeringQuestions<T>(page: string, save: () => Promise<T>): Promise<T> {
  const done = new AbortController();
  void (async () => {
    while (!done.signal.aborted) {
      let question: HostQuestion | null;
      try {
        const res = await fetch(`${page}__question`, { method: 'POST', signal: done.signal });
        if (!res.ok) return;
        question = ((await res.json()) as { question: HostQuestion | null }).question;
      } catch {
        return; // the save ended, or the host is gone: the save's own answer says so
      }
      if (!question) continue;
      const agree = window.confirm(
        `${question.title}: ${question.message}\n\n${question.detail}\n\nOK: ${question.agree}. Cancel: change nothing.`,
      );
      await fetch(`${page}__answer/${question.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agree }),
      }).catch(() => undefined);
    }
  })();
  try {
    return await save();
  } finally {
    done.abort();
  }
}

/** The page's address up to its last slash, without query or hash: where the host serves the bridge. */
function pageFolder(): string {
  return new URL('.', `${window.location.origin}${window.location.pathname}`).href;
}
