// An error thrown in the main process reaches the renderer with the message the main process wrote,
// in Electron as in the browser preview: without Electron's "Error invoking remote method" prefix.

import { describe, expect, it } from 'vitest';
import { remoteErrorMessage } from '../../../electron/preload/remote-error.ts';

describe('remoteErrorMessage', () => {
  it("strips Electron's wrapping of an invoke that failed in the main process", () => {
    expect(
      remoteErrorMessage(
        new Error(
          "Error invoking remote method 'auth.status': Error: The sign-in state could not be read. Try again.",
        ),
      ),
    ).toBe('The sign-in state could not be read. Try again.');
    expect(
      remoteErrorMessage(
        new Error("Error invoking remote method 'api.request': TypeError: Refused api.request."),
      ),
    ).toBe('Refused api.request.');
    expect(remoteErrorMessage(new Error("Error invoking remote method 'auth.signOut': boom"))).toBe('boom');
  });

  it('leaves any other message as it is', () => {
    expect(remoteErrorMessage(new Error('Error: not from invoke'))).toBe('Error: not from invoke');
    expect(remoteErrorMessage('plain text')).toBe('plain text');
  });
});
