// The pipeline stage an account is in, for the list's Stage column and the export of that list.

import { platformIcon } from '../common/icons.ts';
import type { AccountRow } from '../data/model.ts';
import type { UserConfig } from '../household/userConfig.ts';

/**
 * The stage as the user's pipelines name it, else as the account's own copy of it says (a stage
 * the user resource does not list yet). An account made here and not sent yet has none: the
 * platform places a new account in the first stage of its type's pipeline (version 2 takes no
 * stage on a create), so that stage is shown, said to be the one it goes to when sent, rather
 * than "—". Null for an account on the platform without a stage.
 */
export function accountStage(
  config: UserConfig,
  row: AccountRow,
): { title: string; icon: string; whenSent?: string } | null {
  const known = config.stage(row.pipelineId);
  if (known) return { title: known.title, icon: platformIcon(known.icon) };
  if (row.meta.pipeline && row.meta.pipeline.id === row.pipelineId)
    return { title: row.meta.pipeline.title, icon: platformIcon(row.meta.pipeline.icon) };
  const first =
    row.serverId === null && !row.pipelineId
      ? config.pipelines.value.find((p) => p.type === row.type)?.stages[0]
      : undefined;
  // `whenSent`: the stage's own name, for a narrow cell that marks the rest otherwise.
  if (first) return { title: `${first.title} (when sent)`, icon: 'pi pi-hourglass', whenSent: first.title };
  return null;
}
