// The layers of DESIGN.md §2 as one lint rule, `layers/imports`: every folder of the project is
// a zone that names what it may import (an allow-list, as VS Code's `code-layering`), so a folder
// nobody placed yet fails on its first import, and so does any import of it from a placed one.

import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = import.meta.dirname;
const R = 'renderer/src';

/** What several features share, beneath them and above `common/`. */
const SHARED_FEATURES = [`${R}/household`, `${R}/export`, `${R}/activity-feed`, `${R}/commands`];
/** What the renderer's upper layers may all import. */
const BASE = [`${R}/common`, `${R}/data`, `${R}/sync`, 'shared'];
/** The features: one folder per area of the app, each importing only what lies beneath them. */
const FEATURES = [
  'accounts',
  'activity',
  'engagements',
  'forms',
  'home',
  'meeting-summary',
  'prepare',
  'reports',
  'settings',
  'sign-in',
  'sync-status',
  'workspace',
].map((name) => `${R}/${name}`);
/** A parent feature and the features whose components it mounts (the workspace's tabs and dialogs). */
const MOUNTS = {
  [`${R}/workspace`]: ['accounts', 'activity', 'engagements', 'forms', 'reports'].map(
    (name) => `${R}/${name}`,
  ),
  [`${R}/home`]: [`${R}/activity`, `${R}/prepare`],
  [`${R}/sync-status`]: [`${R}/prepare`],
};

const BRIDGE = 'The renderer reaches the outside only through the Bridge (window.advisor, behind common/).';
const FEATURE_SAYS =
  'A feature imports only what lies beneath the features (household/, export/, activity-feed/, commands/, common/, data/, sync/, shared/), and the components of a child it mounts (`mounts`): move what two features share down.';

/**
 * The zones, each a folder (or, ending in `/*`, the files directly in a folder). A file belongs to
 * the longest folder that holds it. `may` lists the folders its files may import besides their
 * own; `mounts` lists the features whose components (a `.vue` file, not a view) it may mount;
 * `views` marks the one file that imports views; `says` is why an import outside `may` is wrong,
 * by default and (`about`) for a particular folder.
 */
export const ZONES = [
  { zone: '*', may: [], says: 'A configuration at the top of the project imports nothing of it.' },
  { zone: 'shared', may: [], says: 'shared/ imports nothing of the project outside it.' },
  {
    zone: 'electron',
    may: ['shared'],
    says: 'The main process and its hosts import neither the renderer nor the tests: only shared/.',
  },
  // The tests and the scripts drive the whole app: they may import any of it.
  { zone: 'scripts', may: ['*', 'test', 'electron', 'shared', 'renderer'], says: '' },
  { zone: 'test', may: ['*', 'scripts', 'electron', 'shared', 'renderer'], says: '' },

  // The renderer, top to bottom: the entry, the shell, the features, what they share, common, the
  // sync engine and the data layer.
  { zone: `${R}/*`, may: [`${R}/shell`, ...BASE], says: 'The entry starts the shell.' },
  {
    zone: `${R}/shell`,
    may: [`${R}/shell/router.ts`, ...FEATURES, ...SHARED_FEATURES, ...BASE],
    says: 'The shell imports the features and what lies beneath them.',
  },
  {
    zone: `${R}/shell/router.ts`,
    may: [`${R}/shell`, ...FEATURES, ...SHARED_FEATURES, ...BASE],
    views: true,
    says: 'The routes import the features and what lies beneath them.',
  },
  ...FEATURES.map((zone) => ({
    zone,
    may: [...SHARED_FEATURES, ...BASE],
    mounts: MOUNTS[zone] ?? [],
    says: FEATURE_SAYS,
  })),
  {
    zone: `${R}/export`,
    may: [`${R}/household`, ...BASE],
    says: 'export/ makes files from the household read model and the store: it imports no feature.',
  },
  ...[`${R}/household`, `${R}/activity-feed`, `${R}/commands`].map((zone) => ({
    zone,
    may: BASE,
    says: `${zone.slice(R.length + 1)}/ is shared by the features, beneath them: it imports only common/, data/, sync/ and shared/.`,
  })),
  {
    zone: `${R}/common`,
    may: [`${R}/data`, `${R}/sync`, 'shared'],
    says: 'common/ is beneath the features and what they share: it imports only data/, sync/ and shared/.',
  },
  {
    zone: `${R}/sync`,
    may: [`${R}/data`, 'shared'],
    says: 'The sync engine is beneath the features: it imports only data/ and shared/.',
  },
  {
    zone: `${R}/data`,
    may: ['shared'],
    says: 'The data layer is beneath the features: it imports only shared/.',
    about: {
      [`${R}/sync`]: 'The data layer is beneath the sync engine: the engine imports it, not the reverse.',
    },
  },
];

const VIEW_SAYS =
  'A view (a screen the router mounts, *View.vue) is imported by the router only: move what this file needs out of it.';
const PLATFORM_SAYS = 'Only test/ and scripts/ use the sandbox platform.';

const inside = (path, folder) => path === folder || path.startsWith(`${folder}/`);
const holds = (zone, path) =>
  zone.endsWith('*')
    ? zone === '*'
      ? !path.includes('/')
      : dirname(path) === zone.slice(0, -2)
    : inside(path, zone);

/** The zone of a project path (relative, with `/`): the most specific one that holds it. */
export function zoneOf(path) {
  let found = null;
  for (const z of ZONES)
    if (holds(z.zone, path) && (found === null || z.zone.length > found.zone.length)) found = z;
  return found;
}

/** The project path an import names, or null for a package. */
function target(file, spec) {
  const path = spec.split('?')[0];
  if (path.startsWith('@shared/')) return `shared/${path.slice('@shared/'.length)}`;
  if (!path.startsWith('.')) return null;
  const absolute = resolve(dirname(file), path);
  return relative(ROOT, absolute).split(sep).join('/');
}

/** Why `from` may not import `to`, or null when it may. */
export function refusal(from, to) {
  const zone = zoneOf(from);
  const toZone = zoneOf(to);
  const platform = inside(to, 'test/platform') ? ` ${PLATFORM_SAYS}` : '';
  if (zone === null)
    return `${dirname(from)}/ is in no layer: give it a zone in eslint.layers.js.${platform}`;
  if (!zone.views && inside(from, R) && /View\.vue$/.test(to) && inside(to, R)) return VIEW_SAYS;
  if (toZone === null) return `${dirname(to)}/ is in no layer: give it a zone in eslint.layers.js.`;
  if (toZone === zone || zone.may.some((folder) => holds(folder, to))) return null;
  if (zone.mounts?.some((folder) => inside(to, folder)) && to.endsWith('.vue')) return null;
  if (inside(from, R) && !inside(to, R)) return `${BRIDGE}${platform}`;
  const said = Object.entries(zone.about ?? {}).find(([folder]) => inside(to, folder))?.[1] ?? zone.says;
  return `${said}${platform}`;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder imports only what its zone in eslint.layers.js allows.' },
    schema: [],
  },
  create(context) {
    const file = relative(ROOT, context.physicalFilename).split(sep).join('/');
    function check(node) {
      const spec = node.source?.value;
      if (typeof spec !== 'string') return;
      const to = target(context.physicalFilename, spec);
      if (to === null) return;
      const why = refusal(file, to);
      if (why !== null) context.report({ node: node.source, message: `'${spec}': ${why}` });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { imports: importsRule } };
