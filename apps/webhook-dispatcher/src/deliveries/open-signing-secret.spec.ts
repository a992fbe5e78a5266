import { randomBytes } from 'node:crypto';
import { SealedSecretError, SecretsKeyring, signingSecretContext } from '@payhook/config';
import { openSigningSecret } from './deliveries.repository';

describe('openSigningSecret', () => {
  const shop = { id: 'we_a', merchantId: 'mer_a', livemode: false };
  const other = { id: 'we_b', merchantId: 'mer_b', livemode: false };

  it('opens a secret once and answers later reads of the same sealed text from memory', () => {
    const keyring = new SecretsKeyring(randomBytes(32));
    const sealed = keyring.seal('whsec_a', signingSecretContext(shop));
    const open = jest.spyOn(keyring, 'open');

    expect([openSigningSecret(keyring, shop, sealed), openSigningSecret(keyring, shop, sealed)]).toEqual([
      'whsec_a',
      'whsec_a',
    ]);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('still refuses a sealed value read for another merchant, after it opened for its own', () => {
    const keyring = new SecretsKeyring(randomBytes(32));
    const sealed = keyring.seal('whsec_a', signingSecretContext(shop));
    openSigningSecret(keyring, shop, sealed);

    expect(() => openSigningSecret(keyring, other, sealed)).toThrow(SealedSecretError);
  });

  it('keeps each keyring’s secrets apart: opened under one SECRETS_KEY, still refused under another', () => {
    const keyring = new SecretsKeyring(randomBytes(32));
    const sealed = keyring.seal('whsec_a', signingSecretContext(shop));
    openSigningSecret(keyring, shop, sealed);

    expect(() => openSigningSecret(new SecretsKeyring(randomBytes(32)), shop, sealed)).toThrow(SealedSecretError);
  });
});
