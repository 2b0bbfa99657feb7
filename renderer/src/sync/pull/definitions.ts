// The forms' allowed values from `/define/{entity}/{entityId}` (0.0.1), pulled on the
// configuration's schedule (at most once per `configMaxAgeMs`, a day) into the config table, with
// the time of the pull. Only the entities whose forms offer a choice from a list (a select, or an
// amount's frequency) are asked about: 15 sections and the member details (`FullMember`), so 16
// requests, under one account of this store: the document names the account in the path but says
// nothing of definitions differing by account, so one account's stand for the team's.

import type { ApiResult, Priority } from '@shared/api/request.ts';
import {
  allowedValuesOf,
  entitiesWithChoices,
  type AllowedByEntity,
  type AllowedValues,
} from '@shared/allowed-values.ts';
import { SECTION_FORMS } from '@shared/section-forms/build.ts';
import { MEMBER_ENTITY } from '@shared/section-forms/member-form.ts';
import { CONFIG_KEYS, CONFIG_TABLES, configEntry, putConfigEntries } from '../../data/config.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { allParts, call, readMeta, type PullContext } from './context.ts';
import { emptyReport, failed, unreadable, type PullReport } from './report.ts';

export const DEFINITIONS_STATE = 'pull.definitions';

/**
 * The entities asked about: those whose section forms have a select or an amount, and the member
 * details (gender, marital status).
 */
export const DEFINED_ENTITIES: readonly string[] = [...entitiesWithChoices(SECTION_FORMS), MEMBER_ENTITY];

/**
 * The account the definitions are asked under: the one with the smallest platform id that the
 * platform has not deleted (one kept here for its pending changes would answer 404 every run).
 */
async function anyServerAccount(db: AdvisorDb): Promise<number | null> {
  const first = await db.accounts
    .orderBy('serverId')
    .filter((a) => !a.deletedOnServer)
    .first();
  return typeof first?.serverId === 'number' ? first.serverId : null;
}

/**
 * Skipped when pulled within `configMaxAgeMs` (unless `force`), and while this store holds no
 * account on the platform to ask under (the next run tries again). An entity the platform answers
 * replaces what was kept of it; one it does not define (404, while others answer) falls back to
 * the built-in table; one that failed keeps what was kept, and the pull is tried again next run.
 */
export async function pullDefinitions(
  ctx: PullContext,
  options: { force?: boolean; priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const last = await readMeta<{ pulledAt: number | null }>(ctx.db, DEFINITIONS_STATE, { pulledAt: null });
  if (!options.force && last.pulledAt !== null && ctx.now() - last.pulledAt < ctx.configMaxAgeMs)
    return { ...report, skipped: true };
  const accountId = await anyServerAccount(ctx.db);
  if (accountId === null) return { ...report, skipped: true };
  const priority = options.priority ?? 'background';
  const paths = DEFINED_ENTITIES.map((entity) => `/define/${encodeURIComponent(entity)}/${accountId}`);
  const answers = await allParts(
    paths.map((path) => call(ctx, report, { api: 'v0', method: 'GET', path, priority })),
  );
  const kept = (await configEntry<AllowedByEntity>(ctx.db, CONFIG_KEYS.definitions))?.data ?? {};
  // A 404 for every entity says the account is gone, not that nothing is defined: a failure.
  const someAnswered = answers.some((a) => a.ok);
  const next: Record<string, AllowedValues> = {};
  answers.forEach((answer: ApiResult, i) => {
    const entity = DEFINED_ENTITIES[i] as string;
    const path = paths[i] as string;
    const values = answer.ok ? allowedValuesOf(answer.data) : null;
    if (values) {
      next[entity] = values;
      report.records += 1;
      return;
    }
    if (!answer.ok && answer.status === 404 && someAnswered) return;
    if (answer.ok) unreadable(report, path);
    else failed(report, path, answer);
    const before = kept[entity];
    if (before) next[entity] = before;
  });
  // Nothing answered (offline, the account gone): what is kept stays, with the time it was pulled.
  if (!someAnswered) return report;
  await ctx.db.transaction('rw', [...CONFIG_TABLES, 'meta'], async () => {
    await putConfigEntries(ctx.db, [[CONFIG_KEYS.definitions, { pulledAt: ctx.now(), data: next }]]);
    report.written += 1;
    if (report.failures.length === 0)
      await ctx.db.meta.put({ key: DEFINITIONS_STATE, value: { pulledAt: ctx.now() } });
  });
  return report;
}
