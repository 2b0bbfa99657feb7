// `npm run package`: builds the app and its installers for this OS with electron-builder, after
// saying which signing and notarisation variables are set. Nothing is published.

import { spawnSync } from 'node:child_process';
import { signingPlan } from './signing.ts';

const plan = signingPlan(process.env, process.platform);
for (const line of plan.lines) console.log(line);

const env = { ...process.env, ...plan.env };
const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('npx', ['electron-vite', 'build']);
run('npx', [
  'electron-builder',
  '--config',
  'build/electron-builder.yml',
  '--publish',
  'never',
  ...process.argv.slice(2),
]);
