// The worker that builds a workbook (xlsx-sheets.ts) away from the window: tables in, bytes out
// (transferred, not copied).

import { workbookBytes, type SheetTable } from './xlsx-sheets.ts';

self.onmessage = async (event: MessageEvent<SheetTable[]>) => {
  try {
    const bytes = await workbookBytes(event.data);
    (self as unknown as Worker).postMessage({ bytes }, [bytes.buffer]);
  } catch (error) {
    (self as unknown as Worker).postMessage({
      error: error instanceof Error ? error.message : String(error),
    });
  }
};
