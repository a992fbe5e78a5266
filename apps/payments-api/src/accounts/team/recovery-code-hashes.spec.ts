import { secretsKeyId } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import type { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { RecoveryCodeHashes, recoveryCodeDigest } from './recovery-code-hashes';

const hashesUnder = (key: Buffer, previous?: Buffer) =>
  new RecoveryCodeHashes({ secretsKey: { key }, previousSecretsKey: previous } as unknown as PaymentsApiEnv);

describe('RecoveryCodeHashes', () => {
  const key = randomBytes(32);
  const oldKey = randomBytes(32);

  it('stores a code as an HMAC under SECRETS_KEY, named by the key id, never as its bare digest', () => {
    const stored = hashesUnder(key).current('mem_1', 'abcde-fghij');
    expect(stored).toMatch(new RegExp(`^hmac1:${secretsKeyId(key)}:[0-9a-f]{64}$`));
    expect(stored).not.toContain(recoveryCodeDigest('mem_1', 'abcde-fghij'));
    // Another key, another member: another hash.
    expect(hashesUnder(oldKey).current('mem_1', 'abcde-fghij')).not.toBe(stored);
    expect(hashesUnder(key).current('mem_2', 'abcde-fghij')).not.toBe(stored);
  });

  it('matches a code as typed: case, spaces and the hyphen do not matter', () => {
    const hashes = hashesUnder(key);
    expect(hashes.candidates('mem_1', ' ABCDE fghij ')[0]).toBe(hashes.current('mem_1', 'abcde-fghij'));
  });

  it('during a rotation, matches codes stored under the previous key as well, the current key first', () => {
    const stored = hashesUnder(oldKey).current('mem_1', 'abcde-fghij');
    const candidates = hashesUnder(key, oldKey).candidates('mem_1', 'abcde-fghij');
    expect(candidates.slice(0, 2)).toEqual([hashesUnder(key).current('mem_1', 'abcde-fghij'), stored]);
    expect(hashesUnder(key).candidates('mem_1', 'abcde-fghij')).not.toContain(stored);
  });

  it('matches a code stored before codes were keyed, by its bare digest, until it is keyed', () => {
    expect(hashesUnder(key).candidates('mem_1', 'abcde-fghij')).toEqual([
      hashesUnder(key).current('mem_1', 'abcde-fghij'),
      recoveryCodeDigest('mem_1', 'abcde-fghij'),
    ]);
  });

  it('keys a code stored as its bare digest into what the code itself would be stored as', () => {
    const hashes = hashesUnder(key);
    expect(hashes.ofDigest(recoveryCodeDigest('mem_1', 'abcde-fghij'))).toBe(hashes.current('mem_1', 'abcde-fghij'));
  });
});
