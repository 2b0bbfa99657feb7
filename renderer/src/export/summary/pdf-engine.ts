// Turns a pdfmake document into the bytes of a PDF, the same way in the renderer (pdfmake's
// browser build, which vite bundles) and in Node tests (its pdfkit-based build): Roboto from the
// virtual file system pdfmake ships, so that every name prints (Ł, ğ, −), and no image or font is
// ever fetched: the summary is written from this computer alone.

import pdfMake from 'pdfmake';
import robotoVfs from 'pdfmake/build/vfs_fonts.js';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

/** What both builds expose beyond the typings: the virtual file system the fonts are read from. */
interface Engine {
  virtualfs: { writeFileSync(name: string, content: string, encoding: string): void };
  setLocalAccessPolicy?: (allow: (path: string) => boolean) => void;
}

let ready = false;

function prepare(): void {
  if (ready) return;
  const engine = pdfMake as unknown as Engine;
  for (const [name, data] of Object.entries(robotoVfs as Record<string, string>))
    engine.virtualfs.writeFileSync(name, data, 'base64');
  pdfMake.setFonts({
    Roboto: {
      normal: 'Roboto-Regular.ttf',
      bold: 'Roboto-Medium.ttf',
      italics: 'Roboto-Italic.ttf',
      bolditalics: 'Roboto-MediumItalic.ttf',
    },
  });
  // Nothing outside the document itself: no URL, no local path (images come as data URLs).
  pdfMake.setUrlAccessPolicy(() => false);
  engine.setLocalAccessPolicy?.(() => false);
  ready = true;
}

export async function renderPdf(doc: TDocumentDefinitions): Promise<Uint8Array> {
  prepare();
  const buffer: Uint8Array = await pdfMake.createPdf(doc).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
