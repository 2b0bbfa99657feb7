// The preload: exposes `window.advisor`, the Bridge over IPC, and nothing else.

import { contextBridge, ipcRenderer } from 'electron';
import type { Bridge } from '@shared/bridge.ts';
import { remoteErrorMessage } from './remote-error.ts';

/** One Bridge method as an IPC call on the channel `<group>.<method>`. */
function call<G extends keyof Bridge, M extends keyof Bridge[G] & string>(group: G, method: M): Bridge[G][M] {
  const channel = `${group}.${method}`;
  return ((...args: unknown[]) =>
    ipcRenderer.invoke(channel, ...args).catch((error: unknown) => {
      throw new Error(remoteErrorMessage(error));
    })) as Bridge[G][M];
}

const advisor = {
  auth: {
    status: call('auth', 'status'),
    beginSignIn: call('auth', 'beginSignIn'),
    finishSignIn: call('auth', 'finishSignIn'),
    cancelSignIn: call('auth', 'cancelSignIn'),
    signOut: call('auth', 'signOut'),
    bindIdentity: call('auth', 'bindIdentity'),
  },
  api: { request: call('api', 'request') },
  files: {
    download: call('files', 'download'),
    preview: call('files', 'preview'),
    forgetUser: call('files', 'forgetUser'),
    open: call('files', 'open'),
    save: call('files', 'save'),
    openSaved: call('files', 'openSaved'),
    keep: call('files', 'keep'),
    kept: call('files', 'kept'),
    transfers: call('files', 'transfers'),
  },
  exports: {
    begin: call('exports', 'begin'),
    write: call('exports', 'write'),
    finish: call('exports', 'finish'),
    cancel: call('exports', 'cancel'),
  },
  settings: {
    get: call('settings', 'get'),
    saveProfile: call('settings', 'saveProfile'),
    setPreferences: call('settings', 'setPreferences'),
  },
  updates: {
    status: call('updates', 'status'),
    setFeed: call('updates', 'setFeed'),
  },
  diagnostics: {
    report: call('diagnostics', 'report'),
    save: call('diagnostics', 'save'),
  },
} satisfies Bridge;

contextBridge.exposeInMainWorld('advisor', advisor);
