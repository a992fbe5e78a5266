import type { ConsumeMessage } from 'amqplib';
import { ChannelAcks } from './channel-acks';

const message = (deliveryTag: number) => ({ fields: { deliveryTag } }) as ConsumeMessage;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A channel that records the ack frames it would send: [delivery tag, multiple]. */
function recordingChannel() {
  const frames: [number, boolean][] = [];
  return { frames, ack: (sent: ConsumeMessage, allUpTo = false) => frames.push([sent.fields.deliveryTag, allUpTo]) };
}

/** For a channel that stays open: no ack may go unsent. */
const unexpected = (count: number) => {
  throw new Error(`${count} ack(s) unsent on an open channel`);
};

describe('ChannelAcks', () => {
  it('sends one multiple ack for a run of finished deliveries at the head of the window', async () => {
    const channel = recordingChannel();
    const acks = new ChannelAcks(channel, unexpected);
    const messages = [1, 2, 3].map(message);
    messages.forEach((m) => acks.received(m));
    acks.ack(messages[1]);
    acks.ack(messages[0]);
    acks.ack(messages[2]);
    expect(channel.frames).toEqual([]);
    await nextTurn();
    expect(channel.frames).toEqual([[3, true]]);
  });

  it('acks a finished delivery behind a running one by itself, and never the running one', async () => {
    const channel = recordingChannel();
    const acks = new ChannelAcks(channel, unexpected);
    const messages = [1, 2, 3, 4].map(message);
    messages.forEach((m) => acks.received(m));
    acks.ack(messages[1]);
    acks.ack(messages[3]);
    await nextTurn();
    expect(channel.frames).toEqual([
      [2, false],
      [4, false],
    ]);
    acks.ack(messages[0]);
    await nextTurn();
    expect(channel.frames.slice(2)).toEqual([[1, false]]);
  });

  it('leaves a delivery settled at once (a nack) out of the window, so a later run passes over it', async () => {
    const channel = recordingChannel();
    const acks = new ChannelAcks(channel, unexpected);
    const messages = [1, 2, 3].map(message);
    messages.forEach((m) => acks.received(m));
    const nacked: number[] = [];
    acks.settleNow(messages[1], () => nacked.push(2));
    expect(nacked).toEqual([2]);
    acks.ack(messages[0]);
    acks.ack(messages[2]);
    acks.ack(messages[1]); // settled already: nothing more is sent for it
    await nextTurn();
    expect(channel.frames).toEqual([[3, true]]);
  });

  it('sends what it gathered at once on flush, as before a graceful close', () => {
    const channel = recordingChannel();
    const acks = new ChannelAcks(channel, unexpected);
    const messages = [1, 2].map(message);
    messages.forEach((m) => acks.received(m));
    acks.ack(messages[0]);
    acks.ack(messages[1]);
    acks.flush();
    expect(channel.frames).toEqual([[2, true]]);
  });

  it('drops its acks without throwing once the channel has closed, and says how many (the broker delivers those again)', async () => {
    const closed = {
      ack: () => {
        throw new Error('Channel closed');
      },
    };
    const unsent: number[] = [];
    const acks = new ChannelAcks(closed, (count) => unsent.push(count));
    const messages = [1, 2, 3, 4, 5].map(message);
    messages.forEach((m) => acks.received(m));
    // 1 and 2 at the head (one multiple ack), 4 alone behind 3, which is still running.
    [messages[0], messages[1], messages[3]].forEach((m) => acks.ack(m));
    await expect(nextTurn()).resolves.toBeUndefined();
    expect(unsent).toEqual([3]);
    // The window is gone with the channel: a late ack of 3 sends nothing and says nothing.
    acks.ack(messages[2]);
    expect(() => acks.flush()).not.toThrow();
    expect(unsent).toEqual([3]);
  });

  it('counts only the acks after the one that failed when the channel closes midway', async () => {
    const frames: [number, boolean][] = [];
    const closing = {
      ack: (sent: ConsumeMessage, allUpTo = false) => {
        if (frames.length > 0) throw new Error('Channel closed');
        frames.push([sent.fields.deliveryTag, allUpTo]);
      },
    };
    const unsent: number[] = [];
    const acks = new ChannelAcks(closing, (count) => unsent.push(count));
    const messages = [1, 2, 3, 4].map(message);
    messages.forEach((m) => acks.received(m));
    [messages[0], messages[1], messages[3]].forEach((m) => acks.ack(m));
    await nextTurn();
    expect(frames).toEqual([[2, true]]);
    expect(unsent).toEqual([1]);
  });
});
