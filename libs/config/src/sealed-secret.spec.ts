import {
  SealedSecretError,
  SecretsKeyring,
  sealedKeyId,
  sealedPrefix,
  secretsKeyId,
  modeSigningSecretContext,
  signingSecretContext,
} from './sealed-secret';

describe('sealed secrets', () => {
  const oldKey = Buffer.alloc(32, 1);
  const newKey = Buffer.alloc(32, 2);
  const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ';
  const endpoint = { id: 'we_one', merchantId: 'mer_one', livemode: false };
  const mine = signingSecretContext(endpoint);

  it('opens what it sealed, and the stored text names the key but holds nothing of the secret', () => {
    const keyring = new SecretsKeyring(oldKey);
    const sealed = keyring.seal(secret, mine);
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain('whsec_');
    expect(sealedKeyId(sealed)).toBe(secretsKeyId(oldKey));
    expect(sealed.startsWith(sealedPrefix(secretsKeyId(oldKey)))).toBe(true);
    expect(keyring.isCurrent(sealed)).toBe(true);
    expect(keyring.open(sealed, mine)).toBe(secret);
  });

  it('seals one secret differently each time (a fresh IV)', () => {
    const keyring = new SecretsKeyring(oldKey);
    const [first, second] = [keyring.seal(secret, mine), keyring.seal(secret, mine)];
    expect(first).not.toBe(second);
    expect(first.split(':')[2]).not.toBe(second.split(':')[2]);
    expect([keyring.open(first, mine), keyring.open(second, mine)]).toEqual([secret, secret]);
  });

  it('opens under SECRETS_KEY_PREVIOUS during a rotation, and seals under SECRETS_KEY only', () => {
    const sealedBefore = new SecretsKeyring(oldKey).seal(secret, mine);
    const rotating = new SecretsKeyring(newKey, oldKey);
    expect(rotating.previousKeyId).toBe(secretsKeyId(oldKey));
    expect(rotating.isCurrent(sealedBefore)).toBe(false);
    expect(rotating.open(sealedBefore, mine)).toBe(secret);

    const resealed = rotating.seal(secret, mine);
    expect(sealedKeyId(resealed)).toBe(secretsKeyId(newKey));
    expect(new SecretsKeyring(newKey).open(resealed, mine)).toBe(secret);
  });

  it('throws, naming the keys by id, when the key that sealed it is not held', () => {
    const sealed = new SecretsKeyring(oldKey).seal(secret, mine);
    const open = () => new SecretsKeyring(newKey).open(sealed, mine);
    expect(open).toThrow(SealedSecretError);
    expect(open).toThrow(
      `sealed under key ${secretsKeyId(oldKey)}, which is neither SECRETS_KEY (${secretsKeyId(newKey)}) ` +
        '(SECRETS_KEY_PREVIOUS is not set)',
    );
  });

  it('throws when a key with the same id is not the key (never returns garbage)', () => {
    const sealed = new SecretsKeyring(oldKey).seal(secret, mine);
    const [version, , iv, ciphertext, tag] = sealed.split(':');
    const relabelled = [version, secretsKeyId(newKey), iv, ciphertext, tag].join(':');
    expect(() => new SecretsKeyring(newKey).open(relabelled, mine)).toThrow(SealedSecretError);
  });

  it('throws when the tag, the ciphertext or the IV was changed', () => {
    const keyring = new SecretsKeyring(oldKey);
    const sealed = keyring.seal(secret, mine);
    const parts = sealed.split(':');
    const flipFirstByte = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    for (const index of [2, 3, 4]) {
      const tampered = parts.map((part, i) => (i === index ? flipFirstByte(part) : part)).join(':');
      expect(() => keyring.open(tampered, mine)).toThrow(
        new SealedSecretError(
          `sealed value under key ${keyring.currentKeyId} does not open: changed, or sealed for another row`,
        ),
      );
    }
  });

  it('does not open in another row: another merchant, the other mode, another endpoint of the same mode', () => {
    const keyring = new SecretsKeyring(oldKey);
    const sealed = keyring.seal(secret, mine);
    for (const other of [
      { ...endpoint, merchantId: 'mer_two' },
      { ...endpoint, livemode: true },
      { ...endpoint, id: 'we_two' },
    ]) {
      expect(() => keyring.open(sealed, signingSecretContext(other))).toThrow(SealedSecretError);
    }
    // Nor under the binding of a merchant's mode that secrets had before each endpoint had its own.
    expect(() => keyring.open(sealed, modeSigningSecretContext(endpoint))).toThrow(SealedSecretError);
  });

  it('refuses plain text and malformed values, without repeating them', () => {
    const keyring = new SecretsKeyring(oldKey);
    const sealed = keyring.seal(secret, mine);
    const parts = sealed.split(':');
    for (const stored of [
      secret,
      '',
      `v2:${parts.slice(1).join(':')}`,
      `${sealed}:extra`,
      parts.map((part, i) => (i === 2 ? part.slice(2) : part)).join(':'),
      parts.map((part, i) => (i === 3 ? `${part}!` : part)).join(':'),
    ]) {
      expect(() => keyring.open(stored, mine)).toThrow(SealedSecretError);
    }
    expect(sealedKeyId(secret)).toBeNull();
    let message = '';
    try {
      keyring.open(secret, mine);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('not a sealed secret');
    expect(message).not.toContain(secret);
  });

  it('names a key by a fingerprint that differs between keys and is not the key', () => {
    expect(secretsKeyId(oldKey)).toMatch(/^[0-9a-f]{8}$/);
    expect(secretsKeyId(oldKey)).toBe(secretsKeyId(Buffer.alloc(32, 1)));
    expect(secretsKeyId(oldKey)).not.toBe(secretsKeyId(newKey));
    expect(oldKey.toString('hex')).not.toContain(secretsKeyId(oldKey));
  });
});
