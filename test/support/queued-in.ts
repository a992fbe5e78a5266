import { pollUntil } from './poll-until';

/**
 * Sends `send`'s requests and resolves once every one of them waits in `batcher` for a slot (all of
 * its slots held by the test), so that they gather into one batch when the test lets go.
 */
export async function queuedIn<T>(batcher: { queued: number }, send: () => PromiseLike<T>[]): Promise<Promise<T>[]> {
  // A supertest request goes out once something awaits it: Promise.resolve does, now.
  const requests = send().map((request) => Promise.resolve(request));
  await pollUntil(
    async () => batcher.queued,
    (queued) => queued === requests.length,
  );
  return requests;
}
