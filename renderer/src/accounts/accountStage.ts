// The pipeline stage an account is in, for the list's Stage column and the export of that list.

import { platformIcon } from '../common/icons.ts';
import type { AccountRow } from '../data/model.ts';
import type { UserConfig } from '../household/userConfig.ts';

/**
 * The stage as the user's pipelines name it, else as the account's own copy of it says (a stage
 * the user resource does not list yet); null until the platform places the account in one.
 */
export function accountStage(config: UserConfig, row: AccountRow): { title: string; icon: string } | null {
  const known = config.stage(row.pipelineId);
  if (known) return { title: known.title, icon: platformIcon(known.icon) };
  if (row.meta.pipeline && row.meta.pipeline.id === row.pipelineId)
    return { title: row.meta.pipeline.title, icon: platformIcon(row.meta.pipeline.icon) };
  return null;
}
