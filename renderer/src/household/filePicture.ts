// The picture a file field shows (a member's photo): the file chosen here while its upload waits,
// then, once the platform has it, the platform's copy by the address of its File object, which the
// main process keeps in the signed-in user's cache and reads back offline (bridge `files.preview`).

import type { ApiName } from '@shared/api/request.ts';
import type { AdvisorDb } from '../data/db.ts';
import { bridge } from '../common/bridge/index.ts';

/** What a file field holds, as the picture is looked for. */
export interface PictureSource {
  /** A file chosen and not yet queued. */
  blob: Blob | null;
  /** The kept bytes of a file whose upload waits (`files` table). */
  localFile: string | null;
  /** The platform's address of the file, once it has it. */
  url: string | null;
  /** MIME type the File object gives. */
  type: string;
}

/**
 * The picture's bytes, or null when there is none to show here (never fetched and offline, say):
 * the card then shows the file's name and size alone. `owner` finds a copy kept in the local store.
 */
export async function pictureOf(
  db: AdvisorDb,
  source: PictureSource,
  options: { api?: ApiName; owner?: string } = {},
): Promise<Blob | null> {
  if (source.blob) return source.blob;
  if (source.localFile) return (await db.files.get(source.localFile))?.blob ?? null;
  if (source.url) {
    const answer = await bridge()
      .files.preview({ api: options.api ?? 'v0', url: source.url, priority: 'interactive' })
      .catch(() => null);
    if (answer?.ok) return new Blob([answer.bytes.slice()], { type: source.type });
  }
  if (!options.owner) return null;
  return (await db.files.where('owner').equals(options.owner).last())?.blob ?? null;
}
