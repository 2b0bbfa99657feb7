// The renderer's app: Vue with Pinia and the router, PrimeVue themed light or dark, mounted by
// the app's entry (main.ts) or the browser preview's (preview.ts) once the bridge is chosen.

import { definePreset } from '@primeuix/themes';
import Aura from '@primeuix/themes/aura';
import { createPinia } from 'pinia';
import 'primeicons/primeicons.css';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { createApp } from 'vue';
import App from './App.vue';
import { createAppRouter } from './shell/router.ts';
import './styles.css';

/** Aura with the app's blue as its primary colour. */
const theme = definePreset(Aura, {
  semantic: {
    primary: Object.fromEntries(
      [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950].map((shade) => [shade, `{blue.${shade}}`]),
    ),
  },
});

/** Mounts the app on the page's #app. */
export function mountApp(): void {
  const app = createApp(App);
  app.use(createPinia());
  app.use(createAppRouter());
  app.use(PrimeVue, {
    theme: { preset: theme, options: { darkModeSelector: '.app-dark', cssLayer: false } },
  });
  app.use(ToastService);
  app.directive('tooltip', Tooltip);
  app.mount('#app');
}
