import { rememberedHandlers } from './queue-handling';

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
