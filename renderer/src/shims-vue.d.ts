// .vue files as modules, for tools that read TypeScript without Vue's language tools (ESLint).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
