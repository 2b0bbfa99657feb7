// @vitest-environment happy-dom
// The head of the Forms and Reports areas, mounted for real: the title and count, the newest time
// the platform was heard of in words, nothing said of a time when nothing was ever pulled, and
// the area's list asked for once when online, not offline, and again when the app is back online.

import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { h } from 'vue';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import AreaHeader from '../../../renderer/src/common/AreaHeader.vue';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { settle } from '../workspace/harness.ts';

const MINUTE = 60_000;
let unmount: (() => void) | null = null;
unmountAfterEach();

async function mountHead(props: { pulledTimes: number[]; asOfWords?: string }, networkUp: boolean) {
  const pinia = createPinia();
  setActivePinia(pinia);
  useConnectivityStore().networkUp = networkUp;
  let pulls = 0;
  const wrapper = mount(
    () =>
      h(AreaHeader, {
        title: 'Forms',
        count: '3 of 12 forms',
        pull: () => {
          pulls++;
          return Promise.reject(new Error('the platform is down'));
        },
        ...props,
      }),
    { attachTo: document.body, global: { plugins: [pinia] } },
  );
  unmount = () => wrapper.unmount();
  await settle();
  return {
    pulls: () => pulls,
    text: () => document.querySelector('header p')?.textContent?.replace(/\s+/g, ' ').trim(),
  };
}

describe('the head of an area', () => {
  it('says the count and the newest time the platform was heard of', async () => {
    const now = Date.now();
    const head = await mountHead({ pulledTimes: [now - 3 * 60 * MINUTE, now - 5 * MINUTE] }, false);
    expect(document.querySelector('h1')?.textContent).toBe('Forms');
    expect(head.text()).toBe('3 of 12 forms · as of 5 minutes ago');
  });

  it('says no time when nothing was pulled, and its own words before one', async () => {
    expect((await mountHead({ pulledTimes: [] }, false)).text()).toBe('3 of 12 forms');
    unmount?.();
    const head = await mountHead({ pulledTimes: [Date.now()], asOfWords: 'list as of' }, false);
    expect(head.text()).toBe('3 of 12 forms · list as of just now');
  });

  it('asks the platform when online, not offline, and again once back online; a failed ask is quiet', async () => {
    const offline = await mountHead({ pulledTimes: [] }, false);
    expect(offline.pulls()).toBe(0);
    useConnectivityStore().networkUp = true;
    await settle();
    expect(offline.pulls()).toBe(1);
    useConnectivityStore().networkUp = false;
    await settle();
    useConnectivityStore().networkUp = true;
    await settle();
    expect(offline.pulls()).toBe(2);
    unmount?.();

    const online = await mountHead({ pulledTimes: [] }, true);
    expect(online.pulls()).toBe(1);
  });
});
