// @vitest-environment happy-dom
// The password dialog both deletes use (an account, a questionnaire), mounted for real: Delete
// stays disabled until a password is typed; the password goes once to the deed, through the
// bridge, and the dialog closes when it is done; the platform's refusal shows on the password
// field, which is wiped and focused again; any other failure says nothing was done; offline,
// nothing can be typed or confirmed; and the password is kept nowhere once handed over.

import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { defineComponent, h, ref } from 'vue';
import { beforeEach, describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import PasswordConfirmDialog from '../../../renderer/src/common/PasswordConfirmDialog.vue';
import { DeleteRefused } from '../../../renderer/src/sync/online-only.ts';
import type { Send } from '../../../renderer/src/sync/send.ts';
import { click, one, settle, typeText } from '../workspace/harness.ts';

const SECRET = 'correct horse battery staple';
const FAILURE = 'The thing could not be deleted. Nothing was deleted; try again in a moment.';

let sent: ApiRequest[];
let acted: { password: string; online: boolean }[];
let outcome: () => Promise<void>;
const visible = ref(true);
let done = 0;

beforeEach(() => {
  sent = [];
  acted = [];
  done = 0;
  visible.value = true;
  useBridge({
    api: {
      request: (req: ApiRequest): Promise<ApiResult> => {
        sent.push(req);
        return Promise.resolve({ ok: true, status: 204, data: null });
      },
    },
  } as unknown as Bridge);
});
unmountAfterEach();

/** The deed: records what it was given, sends it as a delete would, then answers as told. */
async function act(password: string, send: Send, online: boolean) {
  acted.push({ password, online });
  await send({ api: 'v2', method: 'DELETE', path: '/things/1', body: { password } });
  await outcome();
}

async function mountDialog(networkUp = true) {
  const pinia = createPinia();
  const Host = defineComponent(
    () => () =>
      h(
        PasswordConfirmDialog,
        {
          visible: visible.value,
          'onUpdate:visible': (v: boolean) => (visible.value = v),
          header: 'Delete the thing',
          confirmLabel: 'Delete thing',
          act,
          failure: FAILURE,
          testId: 'delete-thing',
          idPrefix: 'delete-thing',
          onDone: () => done++,
        },
        () => h('p', 'This deletes the thing.'),
      ),
  );
  mount(Host, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { theme: 'none' }]], stubs: { transition: false } },
  });
  useConnectivityStore().networkUp = networkUp;
  await settle();
}

const password = () => one('delete-thing-password') as HTMLInputElement;
const confirm = () => one('delete-thing-confirm') as HTMLButtonElement;

describe('the password dialog of a delete', () => {
  it('needs a password before Delete; hands it over once and closes when done', async () => {
    outcome = () => Promise.resolve();
    await mountDialog();
    expect(one('delete-thing').textContent).toContain('This deletes the thing.');
    expect(password().type).toBe('password');
    expect(password().getAttribute('autocomplete')).toBe('off');
    expect(confirm().disabled).toBe(true);

    await typeText(password(), SECRET);
    expect(confirm().disabled).toBe(false);
    await click(confirm());

    expect(acted).toEqual([{ password: SECRET, online: true }]);
    expect(sent).toHaveLength(1);
    expect(visible.value).toBe(false);
    expect(done).toBe(1);
    // Opened again: nothing of what was typed.
    visible.value = true;
    await settle();
    expect(password().value).toBe('');
  });

  it('the platform refuses the password: its words on the field, which is wiped and focused', async () => {
    outcome = () =>
      Promise.reject(
        new DeleteRefused('The password is incorrect.', 'password', {
          password: ['The password is incorrect.'],
        }),
      );
    await mountDialog();
    // A browser does not focus a disabled input: the field must be enabled again when focused.
    const input = password();
    const focus = input.focus.bind(input);
    const focusedWhile: boolean[] = [];
    input.focus = (options?: FocusOptions) => {
      focusedWhile.push(input.disabled);
      focus(options);
    };
    await typeText(password(), SECRET);
    await click(confirm());

    // Typing focused it once; the refusal focuses it again, enabled.
    expect(focusedWhile).toEqual([false, false]);
    expect(one('delete-thing-password-messages').textContent).toContain('The password is incorrect.');
    // Said on the field, not a second time above it.
    expect(document.querySelector('[data-testid="delete-thing-problem"]')).toBeNull();
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(password().value).toBe('');
    expect(document.activeElement).toBe(password());
    expect(confirm().disabled).toBe(true);
    expect(visible.value).toBe(true);
    expect(done).toBe(0);
  });

  it('any other failure says nothing was done, keeps the dialog open and the password nowhere', async () => {
    outcome = () => Promise.reject(new Error(`socket hang up while sending ${SECRET}`));
    await mountDialog();
    await typeText(password(), SECRET);
    await click(confirm());

    expect(one('delete-thing-problem').textContent?.trim()).toBe(FAILURE);
    expect(document.body.textContent).not.toContain(SECRET);
    expect(password().value).toBe('');
    expect(visible.value).toBe(true);
    expect(done).toBe(0);
  });

  it('offline: says so, and nothing can be typed or confirmed', async () => {
    outcome = () => Promise.resolve();
    await mountDialog(false);
    expect(one('delete-thing-offline').textContent).toContain(
      'You are offline: deleting needs a connection, because the platform checks your password.',
    );
    expect(password().disabled).toBe(true);
    expect(confirm().disabled).toBe(true);
    expect(acted).toEqual([]);
    expect(sent).toEqual([]);
  });
});
