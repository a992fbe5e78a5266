import { Expose } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Min } from 'class-validator';
import { CommonEnv } from './common.env';
import { ToBoolean, ToInteger } from './env-transforms';
import { ConfigError, loadEnv } from './load-env';

class ExampleEnv extends CommonEnv {
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of 1 or more' })
  @Min(1, { message: 'must be a whole number of 1 or more' })
  PORT = 3000;

  @Expose()
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  ALLOW?: boolean;
}

describe('loadEnv', () => {
  it('applies the documented defaults when nothing is set', () => {
    const env = loadEnv(ExampleEnv, {});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/payhook');
    expect(env.AMQP_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(env.AMQP_NAMESPACE).toBe('payhook');
    expect(env.ALLOW).toBeUndefined();
    expect(Object.isFrozen(env)).toBe(true);
  });

  it('parses numbers and booleans from strings and ignores unrelated variables', () => {
    const env = loadEnv(ExampleEnv, { PORT: '8080', ALLOW: 'false', HOME: '/root' });
    expect(env.PORT).toBe(8080);
    expect(env.ALLOW).toBe(false);
    expect(env).not.toHaveProperty('HOME');
  });

  it.each([
    ['PORT', 'abc', 'PORT must be a whole number of 1 or more'],
    ['PORT', '12.5', 'PORT must be a whole number of 1 or more'],
    ['PORT', '0', 'PORT must be a whole number of 1 or more'],
    ['ALLOW', 'maybe', 'ALLOW must be true or false'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL must be a postgres:// URL'],
    [
      'DATABASE_URL',
      'postgres://u:p@a:5432,b:x/payhook',
      'DATABASE_URL lists a port that is not 1-65535 (host number 2; a password with / ? # @ must be percent-encoded)',
    ],
    [
      'DATABASE_URL',
      'postgres://a,b/payhook?target_session_attrs=prefer-standby',
      'DATABASE_URL has target_session_attrs=prefer-standby: with several hosts it must be read-write',
    ],
    ['AMQP_NAMESPACE', 'has space', 'AMQP_NAMESPACE must be'],
    ['AMQP_URL', 'amqp://a:5672,,amqp://b:5672', 'AMQP_URL must be an amqp:// or amqps:// URL, or several'],
    ['AMQP_URL', 'amqp://a:5672,http://b', 'AMQP_URL must be an amqp:// or amqps:// URL, or several'],
    ['AMQP_QUEUE_TYPE', 'mirrored', 'AMQP_QUEUE_TYPE must be classic or quorum'],
    [
      'AMQP_URL',
      'amqp://u:p@a:5672,amqp://u:p@b:5672/payhook',
      'AMQP_URL must name the same vhost and user on every node',
    ],
    ['AMQP_URL', 'amqp://u:p@a:5672/x,amqp://v:p@b:5672/x', 'AMQP_URL must name the same vhost and user on every node'],
  ])('rejects %s=%s with one line naming the variable', (name, value, message) => {
    expect(() => loadEnv(ExampleEnv, { [name]: value })).toThrow(ConfigError);
    expect(() => loadEnv(ExampleEnv, { [name]: value })).toThrow(message);
  });

  it("reads AMQP_URL as one node or a comma-separated list of a cluster's nodes", () => {
    expect(loadEnv(ExampleEnv, {}).amqpUrls).toEqual(['amqp://guest:guest@127.0.0.1:5672']);
    expect(loadEnv(ExampleEnv, { AMQP_URL: 'amqp://u:p@rabbit-1:5672, amqp://u:p@rabbit-2:5672' }).amqpUrls).toEqual([
      'amqp://u:p@rabbit-1:5672',
      'amqp://u:p@rabbit-2:5672',
    ]);
  });

  it('makes the webhook queues quorum queues in production and classic elsewhere, unless AMQP_QUEUE_TYPE says', () => {
    expect(loadEnv(ExampleEnv, {}).queueType).toBe('classic');
    expect(loadEnv(ExampleEnv, { NODE_ENV: 'test' }).queueType).toBe('classic');
    const production = { NODE_ENV: 'production', SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(loadEnv(ExampleEnv, production).queueType).toBe('quorum');
    expect(loadEnv(ExampleEnv, { ...production, AMQP_QUEUE_TYPE: 'classic' }).queueType).toBe('classic');
    expect(loadEnv(ExampleEnv, { AMQP_QUEUE_TYPE: 'quorum' }).queueType).toBe('quorum');
  });

  it('never echoes a value, which may be a secret', () => {
    expect(() => loadEnv(ExampleEnv, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('reports every invalid variable at once', () => {
    expect(() => loadEnv(ExampleEnv, { PORT: 'x', ALLOW: 'y' })).toThrow(/PORT .*; ALLOW |ALLOW .*; PORT /);
  });
});
