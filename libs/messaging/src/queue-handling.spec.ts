import { of } from 'rxjs';
import { decide, rememberedHandlers } from './queue-handling';

describe('decide', () => {
  const run = (handler: () => unknown) => decide(handler, 'webhook.deliver', '{}', {});

  it("passes on the handler's decision, also the last one an Observable emits", async () => {
    await expect(run(() => ({ kind: 'retry', content: {}, delayMs: 5, scheduledDelayMs: 5 }))).resolves.toEqual({
      kind: 'retry',
      content: {},
      delayMs: 5,
      scheduledDelayMs: 5,
    });
    await expect(run(() => of({ kind: 'ack' }, { kind: 'dead-letter', reason: 'poison' }))).resolves.toEqual({
      kind: 'dead-letter',
      reason: 'poison',
    });
  });

  it('acks when the handler returns nothing', async () => {
    await expect(run(() => undefined)).resolves.toEqual({ kind: 'ack' });
    await expect(run(() => null)).resolves.toEqual({ kind: 'ack' });
  });

  it('backs off, counted, when the handler throws or returns something that is no decision', async () => {
    await expect(
      run(() => {
        throw new Error('database gone');
      }),
    ).resolves.toEqual({ kind: 'back-off', reason: 'database gone', counts: true });
    // A retry without its delays would be published to a wait queue that does not exist, and dropped.
    const odds = [{ kind: 'acknowledge' }, 'ack', 42, { kind: 'retry', content: {} }, { kind: 'back-off' }];
    for (const odd of odds) {
      await expect(run(() => odd)).resolves.toEqual({
        kind: 'back-off',
        reason: `the handler returned no known decision: ${JSON.stringify(odd)}`,
        counts: true,
      });
    }
  });

  it('sends a message without a handler to the dead-letter place', async () => {
    await expect(decide(null, 'webhook.unknown', '{}', {})).resolves.toEqual({
      kind: 'dead-letter',
      reason: 'no handler for webhook.unknown',
    });
  });
});

describe('rememberedHandlers', () => {
  it('looks a found handler up once per pattern, and a missing one each time', () => {
    const handler = () => undefined;
    const lookups: string[] = [];
    const handlerFor = rememberedHandlers((pattern) => {
      lookups.push(pattern);
      return pattern === 'webhook.deliver' ? handler : null;
    });

    expect([handlerFor('webhook.deliver'), handlerFor('webhook.deliver')]).toEqual([handler, handler]);
    expect([handlerFor('unknown'), handlerFor('unknown')]).toEqual([null, null]);
    expect(lookups).toEqual(['webhook.deliver', 'unknown', 'unknown']);
  });
});
