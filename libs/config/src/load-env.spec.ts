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
  it('applies the defaults of DESIGN.md §2 when nothing is set', () => {
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
    ['AMQP_NAMESPACE', 'has space', 'AMQP_NAMESPACE must be'],
  ])('rejects %s=%s with one line naming the variable', (name, value, message) => {
    expect(() => loadEnv(ExampleEnv, { [name]: value })).toThrow(ConfigError);
    expect(() => loadEnv(ExampleEnv, { [name]: value })).toThrow(message);
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
