// Configuration, pulled daily into its tables (data/config.ts), each entry with the time it was
// pulled: icons, activity types, the dataset, the user of both interfaces, the 0.0.1 templates
// (the keys forms are sent with), and the structure of each of the user's templates. The user
// and its templates are the platform's current team's: the pull writes them only when the `/user`
// it read names the store's team (another device may have switched it), else nothing.

import type { ApiName, Priority } from '@shared/api/request.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User } from '@shared/wire/v2/user.ts';
import {
  CONFIG_KEYS,
  CONFIG_TABLES,
  putConfigEntries,
  type ConfigEntry,
  type ConfigKey,
} from '../../data/config.ts';
import { allParts, fetchData, readMeta, type PullContext } from './context.ts';
import { emptyReport, failed, type PullReport } from './report.ts';

export const CONFIG_STATE = 'pull.config';

/** Skipped when pulled within the engine's `configMaxAgeMs`, unless `force`. */
export async function pullConfig(
  ctx: PullContext,
  options: { force?: boolean; priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const last = await readMeta<{ pulledAt: number | null }>(ctx.db, CONFIG_STATE, { pulledAt: null });
  if (!options.force && last.pulledAt !== null && ctx.now() - last.pulledAt < ctx.configMaxAgeMs)
    return { ...report, skipped: true };
  const priority = options.priority ?? 'background';
  const parts: [ConfigKey, ApiName, string][] = [
    [CONFIG_KEYS.icons, 'v2', '/config/icons'],
    [CONFIG_KEYS.activities, 'v2', '/config/activities'],
    [CONFIG_KEYS.dataset, 'v2', '/config/dataset'],
    [CONFIG_KEYS.user, 'v2', '/user'],
    [CONFIG_KEYS.userV0, 'v0', '/user'],
    [CONFIG_KEYS.formTemplates, 'v0', '/user/templates'],
  ];
  const answers = await allParts(
    parts.map(([, api, path]) => fetchData(ctx, report, { api, method: 'GET', path, priority })),
  );
  // The v2 user read here says which team is current: no second request to ask.
  const team = answers[3] === undefined ? null : await ctx.team.read(answers[3]);
  if (team?.kind === 'moved') report.teamMoved = team.team;
  // A user without a team is a failure; unknown without one is a store that records no team.
  if (team?.kind === 'unknown' && team.failure) failed(report, '/user', team.failure);
  if (team === null || team.kind === 'moved' || (team.kind === 'unknown' && team.failure)) return report;
  const entries: [ConfigKey, ConfigEntry][] = parts
    .map(([key], i): [ConfigKey, ConfigEntry] => [key, { pulledAt: ctx.now(), data: answers[i] }])
    .filter((_, i) => answers[i] !== undefined);
  const templates = await templateStructures(ctx, answers[3], report, priority);
  if (templates) entries.push([CONFIG_KEYS.templates, { pulledAt: ctx.now(), data: templates }]);
  report.records += entries.length;
  await ctx.db.transaction('rw', [...CONFIG_TABLES, 'meta'], async () => {
    await putConfigEntries(ctx.db, entries);
    if (report.failures.length === 0)
      await ctx.db.meta.put({ key: CONFIG_STATE, value: { pulledAt: ctx.now() } });
  });
  return report;
}

/** The structure of each template of the user resource, by template id; null if any failed. */
async function templateStructures(
  ctx: PullContext,
  user: unknown,
  report: PullReport,
  priority: Priority,
): Promise<Record<string, unknown> | null> {
  // A user the schema refuses (no object) has no templates to read; one it reads has a list.
  const ids = readWire(User, user)?.templates.map((t) => t.id);
  if (!ids) return null;
  const structures = await allParts(
    ids.map((id) =>
      fetchData(ctx, report, {
        api: 'v2',
        method: 'GET',
        path: `/config/template/${encodeURIComponent(id)}`,
        priority,
      }),
    ),
  );
  if (structures.some((s) => s === undefined)) return null;
  return Object.fromEntries(ids.map((id, i) => [id, structures[i]]));
}
