// @vitest-environment happy-dom
// A file's thumbnail and size as the Files tab and a file field show them: the picture when there
// is one, else the icon given (hidden from a screen reader either way: the file's name says what
// it is); sizes in KB up to a megabyte, then in MB to a tenth, nothing when the record gives none.

import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import FileThumbnail from '../../../renderer/src/workspace/FileThumbnail.vue';
import { fileSizeText } from '../../../renderer/src/workspace/fileSize.ts';

unmountAfterEach();

describe('a file’s thumbnail', () => {
  it('shows the picture when there is one', () => {
    const wrapper = mount(FileThumbnail, { props: { src: 'blob:picture-1', icon: 'pi-image' } });
    expect(wrapper.attributes('aria-hidden')).toBe('true');
    expect(wrapper.get('[data-testid="file-thumbnail"]').attributes('src')).toBe('blob:picture-1');
    expect(wrapper.find('i').exists()).toBe(false);
  });

  it('shows the icon given while there is no picture, then the picture once it arrives', async () => {
    const wrapper = mount(FileThumbnail, { props: { src: null, icon: 'pi-file' } });
    expect(wrapper.find('img').exists()).toBe(false);
    expect(wrapper.get('i').classes()).toEqual(['pi', 'pi-file']);
    await wrapper.setProps({ src: 'blob:picture-2' });
    expect(wrapper.get('img').attributes('src')).toBe('blob:picture-2');
  });
});

describe('a file’s size', () => {
  it('reads in KB below a megabyte, in MB to a tenth from one, and is empty when unknown', () => {
    expect(fileSizeText(88)).toBe('88 KB');
    expect(fileSizeText(1023)).toBe('1023 KB');
    expect(fileSizeText(1024)).toBe('1.0 MB');
    expect(fileSizeText(2458)).toBe('2.4 MB');
    expect(fileSizeText(null)).toBe('');
  });
});
