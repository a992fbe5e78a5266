import type { Response } from 'express';
import { SETTLEMENT_CSV_HEADER, settlementCsvLines, type SettlementView } from './settlement.view';

/**
 * Sends a day's records as a CSV download, written a batch at a time as they are read, so a day of
 * any size costs the API one batch of memory (GET /v1/settlements/export and the console's).
 */
export async function sendSettlementsCsv(
  response: Response,
  filename: string,
  batches: AsyncIterable<SettlementView[]>,
  headers: Record<string, string> = {},
): Promise<void> {
  const reader = batches[Symbol.asyncIterator]();
  // Read before anything is sent: a database that does not answer still gets its error page or 503.
  let next = await reader.next();
  response.status(200).set(headers).type('text/csv; charset=utf-8').attachment(filename);
  response.write(SETTLEMENT_CSV_HEADER);
  try {
    while (!next.done) {
      // A client that went away (while this batch was read, too) stops the reading: a write to its
      // closed response would wait for a 'drain' that never comes.
      if (clientGone(response)) return;
      // A slow client holds the reading back instead of the API buffering the day for it.
      if (!response.write(settlementCsvLines(next.value))) await drainedOrClosed(response);
      next = await reader.next();
    }
    if (clientGone(response)) return;
    response.end();
  } catch (error) {
    // The status is sent: cut the download off, so a failure shows as an incomplete transfer rather
    // than as a file that silently ends early. The exception filter still logs it.
    response.destroy();
    throw error;
  }
}

function clientGone(response: Response): boolean {
  return response.destroyed || response.writableEnded;
}

function drainedOrClosed(response: Response): Promise<void> {
  return new Promise((resolve) => {
    // Its 'close' may have fired already: then no event is coming.
    if (clientGone(response)) return resolve();
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}
