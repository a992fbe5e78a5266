import { PayhookError } from '@payhook/contracts';
import type { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { PasswordHashQueue } from './password-hash-queue';

/** A check that lasts until the test lets it finish. */
function heldCheck(): { check: () => Promise<boolean>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { check: () => done.then(() => true), finish };
}

const queueOf = (concurrency: number, queue: number) =>
  new PasswordHashQueue({ PASSWORD_HASH_CONCURRENCY: concurrency, PASSWORD_HASH_QUEUE: queue } as PaymentsApiEnv);

const rateLimited = expect.objectContaining({ code: 'rate_limited', headers: { 'Retry-After': '1' } });

describe('PasswordHashQueue', () => {
  it('lets one client have one check in flight: its next is refused at once, other clients still queue', async () => {
    const queue = queueOf(1, 10);
    const running = heldCheck();
    const first = queue.run('2001:db8:1:2::1', running.check);

    // The same client (another address of its /64), while its check runs: refused, not queued.
    await expect(queue.run('2001:db8:1:2::99', running.check)).rejects.toEqual(rateLimited);
    // Another client waits for the slot.
    const other = queue.run('198.51.100.7', async () => 'other');
    // A client whose check waits in the queue is in flight too: its next is refused.
    await expect(queue.run('198.51.100.7', async () => 'again')).rejects.toBeInstanceOf(PayhookError);

    running.finish();
    await expect(first).resolves.toBe(true);
    await expect(other).resolves.toBe('other');
    // Done: the client may check again.
    await expect(queue.run('2001:db8:1:2::1', async () => 'next')).resolves.toBe('next');
  });

  it('frees a client whose check failed', async () => {
    const queue = queueOf(1, 1);
    await expect(queue.run('192.0.2.1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run('192.0.2.1', async () => 'ok')).resolves.toBe('ok');
  });

  it('still refuses every client once the slots and queue places are taken', async () => {
    const queue = queueOf(1, 1);
    const running = heldCheck();
    const held = [queue.run('192.0.2.1', running.check), queue.run('192.0.2.2', running.check)];
    await expect(queue.run('192.0.2.3', running.check)).rejects.toEqual(rateLimited);
    running.finish();
    await Promise.all(held);
  });

  it('lets a client that has not failed wait ahead of a full queue instead of refusing it', async () => {
    const queue = queueOf(1, 1);
    const running = heldCheck();
    const order: string[] = [];
    const held = queue.run('192.0.2.1', running.check);
    const guessing = queue.run('192.0.2.2', async () => void order.push('guessing'));
    // Full: a client with failures is refused, a clean one waits, and goes before the queued guess.
    await expect(queue.run('192.0.2.3', async () => 'refused')).rejects.toEqual(rateLimited);
    const clean = queue.run('203.0.113.9', async () => void order.push('clean'), { clean: true });
    running.finish();
    await Promise.all([held, guessing, clean]);
    expect(order).toEqual(['clean', 'guessing']);
  });
});
