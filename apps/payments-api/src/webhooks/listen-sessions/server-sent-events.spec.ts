import { sseComment, sseMessage, sseRetry } from './server-sent-events';

describe('server-sent events framing', () => {
  it('writes id, event and one JSON data line, ended by a blank line', () => {
    expect(sseMessage({ id: 'evt_1', event: 'delivery', data: { body: '{"a":"b\nc"}' } })).toBe(
      'id: evt_1\nevent: delivery\ndata: {"body":"{\\"a\\":\\"b\\nc\\"}"}\n\n',
    );
  });

  it('leaves the id out when there is none, so the client keeps its last one', () => {
    expect(sseMessage({ event: 'ready', data: { sessionId: 'lsn_1' } })).toBe(
      'event: ready\ndata: {"sessionId":"lsn_1"}\n\n',
    );
  });

  it('never lets a line break in a field start another field', () => {
    expect(sseMessage({ id: 'a\nevent: x', event: 'e\r\nid: y', data: 1 })).toBe(
      'id: a event: x\nevent: e  id: y\ndata: 1\n\n',
    );
    expect(sseComment('ping\ndata: x')).toBe(': ping data: x\n\n');
  });

  it('says how long to wait before reconnecting', () => {
    expect(sseRetry(1500)).toBe('retry: 1500\n\n');
  });
});
