// Sending stored files: the stored MIME type, the byte length, and a download name that is safe
// to put in a header.
import type { FastifyReply } from 'fastify';
import type { StoredFile } from './model.ts';

export function sendFile(reply: FastifyReply, file: StoredFile, inline = false) {
  const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', file.mime)
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(file.data, 'base64'));
}

export function sendBytes(reply: FastifyReply, name: string, mime: string, bytes: Buffer) {
  return sendFile(reply, {
    id: '',
    name,
    mime,
    data: bytes.toString('base64'),
    size: bytes.length,
    kind: 'document',
    created_at: '',
  });
}
