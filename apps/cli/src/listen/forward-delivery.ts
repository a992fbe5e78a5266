/** What the local handler answered, as the attempt payhook records (the first 1 KiB of the body). */
export interface LocalAnswer {
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** The local handler's answer must come within this, like a real delivery's WEBHOOK_TIMEOUT_MS. */
export const FORWARD_TIMEOUT_MS = 10_000;
const KEPT_BODY_CHARACTERS = 1024;

/**
 * POSTs one delivery to the developer's handler: the body's exact bytes and the headers payhook
 * signed, no redirect followed (a redirect is an answer, as for any endpoint). Never throws.
 */
export async function forwardDelivery(
  url: string,
  delivery: { headers: Record<string, string>; body: string },
): Promise<LocalAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: delivery.headers,
      body: Buffer.from(delivery.body, 'utf8'),
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    // Postgres text cannot hold NUL: payhook would refuse the report (as the dispatcher strips it too).
    const text = withoutNul(await response.text());
    return {
      responseStatus: response.status,
      responseBody: text === '' ? null : text.slice(0, KEPT_BODY_CHARACTERS),
      error: null,
      durationMs: elapsed(),
    };
  } catch (error) {
    return { responseStatus: null, responseBody: null, error: describe(error), durationMs: elapsed() };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS} ms`;
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const text = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return withoutNul(text).slice(0, KEPT_BODY_CHARACTERS);
}

const withoutNul = (text: string) => text.replace(/\0/g, '');
