// A completed engagement's answers as its template groups them: panel → group → element. The
// structure is the template's as the configuration pull keeps it (the flat mode of
// `/config/template/{id}`: the same panels, groups and elements as the nested mode, related by
// id); an answer sits under its element by its dataset id, and one the structure does not place
// goes where its own `path` (panel, group and element title) says.

import { isPlainObject } from '@shared/is-plain-object.ts';
import { readWire } from '@shared/wire/parse.ts';
import { FlatStructure } from '@shared/wire/v2/config.ts';
import { CONFIG_KEYS, configEntry } from '../config.ts';
import type { AdvisorDb } from '../db.ts';
import type { EngagementDataItem } from '../model.ts';
import { engagementParts } from './engagements.ts';

export interface AnswerGroup {
  title: string;
  /** In the order of their elements; each names the member it belongs to (`member_id`). */
  answers: EngagementDataItem[];
}

export interface AnswerPanel {
  title: string;
  groups: AnswerGroup[];
}

/** The stored answers of an engagement, grouped; empty when none are on this computer. */
export async function groupedAnswers(db: AdvisorDb, engagementId: string): Promise<AnswerPanel[]> {
  const engagement = await db.engagements.get(engagementId);
  if (!engagement) return [];
  const items = (await engagementParts(db, engagementId, 'data')).map((row) => row.server);
  const structures = (await configEntry(db, CONFIG_KEYS.templates))?.data;
  const structure = isPlainObject(structures)
    ? readWire(FlatStructure, structures[engagement.templateId])
    : null;
  return groupAnswers(items, structure ?? null);
}

/** Where an answer goes, and its order at each level (what the structure does not know comes last). */
interface Place {
  panel: string;
  group: string;
  order: [number, number, number, number];
}

const LAST = Number.MAX_SAFE_INTEGER;

/** `"2,1"`: the element's place within its group (two integers). */
function elementOrder(position: string): [number, number] {
  const [a = LAST, b = LAST] = position.split(',').map((n) => (/^\s*-?\d+\s*$/.test(n) ? Number(n) : LAST));
  return [a, b];
}

export function groupAnswers(
  items: readonly EngagementDataItem[],
  structure: FlatStructure | null,
): AnswerPanel[] {
  const panels = new Map((structure?.panels ?? []).map((p) => [p.id, p]));
  const groups = new Map((structure?.groups ?? []).map((g) => [g.id, g]));
  const elements = new Map((structure?.elements ?? []).map((e) => [e.id, e]));
  const place = (item: EngagementDataItem): Place => {
    const element = item.dataset_id ? elements.get(item.dataset_id) : undefined;
    const group = element && groups.get(element.group_id);
    const panel = group && panels.get(group.panel_id);
    if (element && group && panel)
      return {
        panel: panel.title,
        group: group.title,
        order: [panel.position, group.position, ...elementOrder(element.position)],
      };
    const [panelTitle = '', groupTitle = '', elementTitle = item.title] = item.path;
    const p = [...panels.values()].find((x) => x.title === panelTitle);
    const g = [...groups.values()].find((x) => x.title === groupTitle && (!p || x.panel_id === p.id));
    const e = g && [...elements.values()].find((x) => x.group_id === g.id && x.title === elementTitle);
    return {
      panel: panelTitle,
      group: groupTitle,
      order: [
        p?.position ?? LAST,
        g?.position ?? LAST,
        ...(e ? elementOrder(e.position) : ([LAST, LAST] as const)),
      ],
    };
  };
  const placed = items.map((item, index) => ({ item, index, ...place(item) }));
  placed.sort((a, b) => {
    for (let i = 0; i < 4; i++) if (a.order[i] !== b.order[i]) return (a.order[i] ?? 0) - (b.order[i] ?? 0);
    return a.panel.localeCompare(b.panel) || a.group.localeCompare(b.group) || a.index - b.index;
  });
  const out: AnswerPanel[] = [];
  for (const { item, panel, group } of placed) {
    let p = out.at(-1);
    if (p?.title !== panel) out.push((p = { title: panel, groups: [] }));
    let g = p.groups.at(-1);
    if (g?.title !== group) p.groups.push((g = { title: group, answers: [] }));
    g.answers.push(item);
  }
  return out;
}
