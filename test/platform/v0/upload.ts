// Multipart uploads of the 0.0.1 interface (field `file`): the bytes, a safe stored name and a
// type read from the bytes themselves rather than from what the client claims.

import { invalid } from '../errors.ts';
import type { Context } from '../router.ts';

export interface Upload {
  fields: Record<string, string>;
  file: { name: string; mime: string; bytes: Buffer } | null;
}

const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  [
    'image/png',
    (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  ],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  ['application/pdf', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
];

export function sniff(bytes: Buffer): string | null {
  return SIGNATURES.find(([, test]) => test(bytes))?.[0] ?? null;
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** A file name safe to store and to send back: no path, no control or reserved characters, bounded. */
export function safeFileName(raw: string | undefined, fallback = 'upload'): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  let name = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  return name === '' || RESERVED.test(name) ? fallback : name;
}

export async function readUpload(ctx: Context): Promise<Upload> {
  // Field names come from the client: a record without a prototype keeps `__proto__` a plain name.
  const out: Upload = { fields: Object.create(null) as Record<string, string>, file: null };
  if (!ctx.req.isMultipart()) return out;
  for await (const part of ctx.req.parts()) {
    if (part.type === 'file') {
      const file = part;
      const bytes = await file.toBuffer();
      if (file.fieldname === 'file' && !out.file)
        out.file = { name: safeFileName(file.filename), mime: file.mimetype, bytes };
    } else if (typeof part.value === 'string') {
      out.fields[part.fieldname] = part.value;
    }
  }
  return out;
}

/** The uploaded `file`, checked against the accepted kinds; 422 with the field named otherwise. */
export async function requireUpload(
  ctx: Context,
  accept: 'image' | 'image-or-pdf' | 'any',
): Promise<Upload & { file: NonNullable<Upload['file']> }> {
  const upload = await readUpload(ctx);
  const file = upload.file;
  if (!file || file.bytes.length === 0) throw invalid(['file is required.']);
  const detected = sniff(file.bytes);
  if (accept === 'image' && !detected?.startsWith('image/'))
    throw invalid(['file is invalid: upload a PNG, JPEG, GIF or WebP picture.']);
  if (accept === 'image-or-pdf' && !detected)
    throw invalid(['file is invalid: upload a PDF or a PNG, JPEG, GIF or WebP picture.']);
  file.mime = detected ?? (/^[\w.+-]+\/[\w.+-]+$/.test(file.mime) ? file.mime : 'application/octet-stream');
  return { ...upload, file };
}
