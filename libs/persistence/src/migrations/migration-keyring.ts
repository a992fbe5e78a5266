// Relative: migrations also run from jest's global setup, where the @payhook/* paths are not mapped.
import { SecretsKeyring } from '../../../config/src/sealed-secret';
import { decodeSecretsKey, secretsKeyFrom } from '../../../config/src/secrets-key';

/** SECRETS_KEY and SECRETS_KEY_PREVIOUS from the environment, as the apps read them. */
export function keyringFromEnvironment(): SecretsKeyring {
  const previous = process.env.SECRETS_KEY_PREVIOUS;
  return new SecretsKeyring(secretsKeyFrom(process.env).key, previous ? decodeSecretsKey(previous) : null);
}
