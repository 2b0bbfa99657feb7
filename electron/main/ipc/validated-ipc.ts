// The one way an IPC handler is registered: the sender must be the top frame of the app origin,
// and the arguments must pass the channel's schema (in `dispatch`) before anything runs.

import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { dispatch, type BridgeHandlers } from '../bridge/handlers.ts';
import { APP_ORIGIN, isTrustedSender } from './sender.ts';

export class UntrustedSender extends Error {}

export function registerBridge(
  ipcMain: Pick<IpcMain, 'handle'>,
  channels: readonly string[],
  handlers: BridgeHandlers,
  appOrigin = APP_ORIGIN,
): void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      if (!isTrustedSender(event.senderFrame, appOrigin)) {
        return Promise.reject(
          new UntrustedSender(`Refused ${channel}: the call did not come from the Advisor Desk window.`),
        );
      }
      return dispatch(handlers, channel, args);
    });
  }
}
