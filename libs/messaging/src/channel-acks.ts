import type { ConsumeMessage } from 'amqplib';

/** What ChannelAcks needs of an amqplib channel. */
export interface AckingChannel {
  ack(message: ConsumeMessage, allUpTo?: boolean): void;
}

/**
 * The acks of one channel, gathered until the end of the event-loop turn and sent in as few frames
 * as the broker allows. Deliveries finish together (an attempt batch's statement answers many at
 * once), and on a quorum queue each basic.ack is a settle command the queue's leader replicates: one
 * `multiple` ack for a run of finished deliveries at the head of the channel's window costs the
 * broker one. A finished delivery behind one still running is acked by itself in the same turn, so
 * no finished message holds a place in the prefetch window.
 *
 * Delivery tags rise on a channel, so the order received is the order of tags. A channel that
 * closes takes its unsent acks with it: the broker delivers those messages again (at-least-once).
 */
export class ChannelAcks {
  /** Received and not yet settled, in tag order; `finished` once its handler acked it. */
  private readonly window = new Map<number, { message: ConsumeMessage; finished: boolean }>();
  private flushScheduled = false;

  constructor(
    private readonly channel: AckingChannel,
    /** Told how many finished deliveries' acks a closed channel took with it, for the logs. */
    private readonly onUnsent: (count: number, error: unknown) => void,
  ) {}

  received(message: ConsumeMessage): void {
    this.window.set(message.fields.deliveryTag, { message, finished: false });
  }

  /** Acks the message in a setImmediate after this turn (or at flush()), with the others finished by then. */
  ack(message: ConsumeMessage): void {
    const entry = this.window.get(message.fields.deliveryTag);
    if (!entry) return; // settled already
    entry.finished = true;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Sends the acks gathered so far now: before the channel closes on a graceful stop. */
  flush(): void {
    this.flushScheduled = false;
    // A run of finished deliveries at the head goes as one multiple ack; one behind a running one, alone.
    const frames: { message: ConsumeMessage; multiple: boolean; covers: number }[] = [];
    let atHead = true;
    for (const [tag, entry] of this.window) {
      if (!entry.finished) {
        atHead = false;
        continue;
      }
      this.window.delete(tag);
      const head = atHead ? frames[0] : undefined;
      if (head) {
        head.message = entry.message;
        head.multiple = true;
        head.covers += 1;
      } else frames.push({ message: entry.message, multiple: false, covers: 1 });
    }
    for (const [n, frame] of frames.entries()) {
      try {
        this.channel.ack(frame.message, frame.multiple);
      } catch (error) {
        // The channel closed: its unsettled messages go back to the queue, which at-least-once allows.
        this.window.clear();
        this.onUnsent(
          frames.slice(n).reduce((count, unsent) => count + unsent.covers, 0),
          error,
        );
        return;
      }
    }
  }

  /** `settle` (a nack) goes at once; the message leaves the window. */
  settleNow(message: ConsumeMessage, settle: () => void): void {
    this.window.delete(message.fields.deliveryTag);
    settle();
  }
}
