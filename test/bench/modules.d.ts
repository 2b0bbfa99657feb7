// Modules the bench page imports under names that run.ts's vite build resolves (`resolve.alias`).
// test/ typechecks without Vue's tools (tsconfig.json), so the view is typed here as a component.

declare module 'bench:account-list-view' {
  import type { Component } from 'vue';
  /** renderer/src/accounts/AccountListView.vue */
  const view: Component;
  export default view;
}
