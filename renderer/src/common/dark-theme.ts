// Whether the page shows the dark theme, followed as it switches: charts read their colours from
// it (canvas drawings do not follow CSS variables by themselves).

import { onBeforeUnmount, ref, type Ref } from 'vue';

export function useDarkTheme(): Ref<boolean> {
  const isDark = () =>
    typeof document !== 'undefined' && document.documentElement.classList.contains('app-dark');
  const dark = ref(isDark());
  const observer =
    typeof MutationObserver !== 'undefined' ? new MutationObserver(() => (dark.value = isDark())) : null;
  if (typeof document !== 'undefined')
    observer?.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  onBeforeUnmount(() => observer?.disconnect());
  return dark;
}
