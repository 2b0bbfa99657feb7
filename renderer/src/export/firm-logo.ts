// The firm's logo at the top of the financial summary, from this computer's copy alone (kept when
// a household is prepared for a meeting): an export sends nothing to the platform. pdfmake draws
// PNG and JPEG; a logo in another format, or none kept, leaves the firm's name alone at the top.

import type { Bridge } from '@shared/bridge.ts';
import type { AdvisorDb } from '../data/db.ts';
import { firmLogoFile } from '../data/stored-files.ts';

/** The bridge's picture reader (`bridge().files.preview`). */
export type Pictures = Pick<Bridge['files'], 'preview'>;

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/** Bytes as a `data:` address, which pdfmake takes for an image. */
function dataUrl(type: string, bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

/** The kept logo as a `data:` address, or undefined when there is none here that pdfmake can draw. */
export async function keptFirmLogo(
  db: AdvisorDb,
  pictures: Pictures | undefined,
): Promise<string | undefined> {
  const logo = await firmLogoFile(db);
  if (!logo || !pictures) return undefined;
  const answer = await pictures.preview({ api: logo.api, url: logo.url, keptOnly: true });
  if (!answer.ok) return undefined;
  if (startsWith(answer.bytes, PNG)) return dataUrl('image/png', answer.bytes);
  if (startsWith(answer.bytes, JPEG)) return dataUrl('image/jpeg', answer.bytes);
  return undefined;
}
