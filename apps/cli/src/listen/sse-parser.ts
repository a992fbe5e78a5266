/** One dispatched Server-Sent Event (WHATWG HTML, "Parsing an event stream"). */
export interface SseEvent {
  /** `message` when the stream named none. */
  event: string;
  data: string;
  /** The stream's last event id as of this event (what Last-Event-ID sends back on reconnect). */
  lastEventId: string;
}

/**
 * An incremental event-stream parser: feed it text as it arrives, in chunks cut anywhere, and it
 * returns the events each chunk completed. Comments (`: …`) are skipped; `retry:` is kept.
 */
export class SseParser {
  private buffer = '';
  private eventType = '';
  private data: string[] = [];
  private sawData = false;
  lastEventId = '';
  retryMs: number | null = null;

  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
  }

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        this.sawData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    const event = this.sawData
      ? { event: this.eventType || 'message', data: this.data.join('\n'), lastEventId: this.lastEventId }
      : null;
    this.eventType = '';
    this.data = [];
    this.sawData = false;
    return event;
  }
}
