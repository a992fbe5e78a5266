import { CommonEnv } from './common.env';
import { ConfigError, loadEnv } from './load-env';
import { decodeSecretsKey, secretsKeyFrom } from './secrets-key';

describe('SECRETS_KEY', () => {
  const key = Buffer.alloc(32, 3).toString('base64');

  it('takes 32 bytes of base64, and nothing shorter, longer or not base64', () => {
    expect(decodeSecretsKey(key)).toEqual(Buffer.alloc(32, 3));
    expect(decodeSecretsKey(Buffer.alloc(16).toString('base64'))).toBeNull();
    expect(decodeSecretsKey(Buffer.alloc(48).toString('base64'))).toBeNull();
    expect(decodeSecretsKey('not a key at all, not even close to base64!!')).toBeNull();
  });

  it('is required in production, in one line naming it', () => {
    expect(() => loadEnv(CommonEnv, { NODE_ENV: 'production' })).toThrow(
      new ConfigError(
        'Invalid configuration: SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32), and is required when NODE_ENV=production',
      ),
    );
    expect(loadEnv(CommonEnv, { NODE_ENV: 'production', SECRETS_KEY: key }).secretsKey).toEqual({
      key: Buffer.alloc(32, 3),
      development: false,
    });
  });

  it('refuses the public development key and an all-zero key in production, in one line, and nowhere else', () => {
    const developmentKey = secretsKeyFrom({ NODE_ENV: 'test' }).key.toString('base64');
    const zeroKey = Buffer.alloc(32).toString('base64');
    for (const [publicKey, reason] of [
      [developmentKey, 'is the public development key'],
      [zeroKey, 'is all zero bytes'],
    ]) {
      const line = `SECRETS_KEY ${reason}, which anyone can know: in production set 32 random bytes (openssl rand -base64 32)`;
      expect(() => loadEnv(CommonEnv, { NODE_ENV: 'production', SECRETS_KEY: publicKey })).toThrow(
        new ConfigError(`Invalid configuration: ${line}`),
      );
      // Migrations read the raw environment: they refuse it too.
      expect(() => secretsKeyFrom({ NODE_ENV: 'production', SECRETS_KEY: publicKey })).toThrow(line);
      expect(loadEnv(CommonEnv, { NODE_ENV: 'development', SECRETS_KEY: publicKey }).secretsKey.key).toEqual(
        Buffer.from(publicKey, 'base64'),
      );
    }
    // The key before a rotation away from one of them still opens what it sealed.
    expect(
      loadEnv(CommonEnv, { NODE_ENV: 'production', SECRETS_KEY: key, SECRETS_KEY_PREVIOUS: zeroKey })
        .previousSecretsKey,
    ).toEqual(Buffer.alloc(32));
  });

  it('is the fixed development key elsewhere, and says so', () => {
    const development = loadEnv(CommonEnv, {}).secretsKey;
    expect(development.development).toBe(true);
    expect(development.key).toHaveLength(32);
    expect(secretsKeyFrom({ NODE_ENV: 'test' })).toEqual(development);
  });
});
