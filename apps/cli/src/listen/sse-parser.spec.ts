import { SseParser } from './sse-parser';

describe('SseParser', () => {
  it('dispatches an event at the blank line, with its type, data and id', () => {
    const parser = new SseParser();
    expect(parser.push('id: evt_1\nevent: delivery\ndata: {"a":1}\n\n')).toEqual([
      { event: 'delivery', data: '{"a":1}', lastEventId: 'evt_1' },
    ]);
    expect(parser.lastEventId).toBe('evt_1');
  });

  it('puts together events cut anywhere across chunks, with any line ending', () => {
    const parser = new SseParser();
    const stream =
      'retry: 1000\r\n\r\n: still here\r\nevent: ready\rdata: x\r\rid: evt_2\nevent: delivery\ndata: {"b":"c"}\n\n';
    const events = [...stream].flatMap((character) => parser.push(character));
    expect(events).toEqual([
      { event: 'ready', data: 'x', lastEventId: '' },
      { event: 'delivery', data: '{"b":"c"}', lastEventId: 'evt_2' },
    ]);
    expect(parser.retryMs).toBe(1000);
  });

  it('joins several data lines, names an unnamed event "message" and skips an event without data', () => {
    const parser = new SseParser('evt_0');
    expect(parser.push('event: nothing\n\ndata: a\ndata: b\n\n')).toEqual([
      { event: 'message', data: 'a\nb', lastEventId: 'evt_0' },
    ]);
  });
});
