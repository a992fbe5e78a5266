/**
 * Server-Sent Events framing (WHATWG HTML, "Server-sent events"): what the listen stream writes.
 * Pure, no Nest. `data` is one JSON line, so no message needs splitting over several data: fields.
 */

/** One message: its `id` is what a reconnecting client sends back as Last-Event-ID. */
export function sseMessage(message: { event: string; data: unknown; id?: string }): string {
  const json = JSON.stringify(message.data);
  const id = message.id === undefined ? '' : `id: ${oneLine(message.id)}\n`;
  return `${id}event: ${oneLine(message.event)}\ndata: ${json}\n\n`;
}

/** A comment line: keeps proxies and the client's idle timers from closing a quiet stream. */
export function sseComment(text: string): string {
  return `: ${oneLine(text)}\n\n`;
}

/** How long a client waits before reconnecting after the stream drops, in milliseconds. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}

// A line break would end the field early and let the rest be read as fields of its own.
const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');
