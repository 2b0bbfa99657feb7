// `npm run web`: the browser preview on the command line (the renderer must be built first).

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sandboxProfile } from '@shared/settings.ts';
import { startPreviewHost } from './host.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5174' },
    platform: { type: 'string', default: 'http://127.0.0.1:4010' },
    data: { type: 'string', default: '.preview-data' },
  },
});

const host = await startPreviewHost({
  port: Number(values.port),
  rendererDir: resolve('out/renderer'),
  dataDir: resolve(values.data),
  defaultProfile: sandboxProfile(values.platform),
});
// The address carries a one-time token: the first browser to open it gets the page, no one else.
console.log(`Advisor Desk (browser preview) at ${host.openUrl()}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void host.close().then(() => process.exit(0)));
