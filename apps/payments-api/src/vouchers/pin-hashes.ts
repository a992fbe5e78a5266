import { Inject, Injectable } from '@nestjs/common';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { keyedPinHash, pinDigest } from './voucher-pin';

/** The stored hash of a PIN under SECRETS_KEY, and the one under SECRETS_KEY_PREVIOUS during a rotation. */
@Injectable()
export class PinHashes {
  private readonly keys: Buffer[];

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    const previous = env.previousSecretsKey;
    this.keys = [env.secretsKey.key, ...(previous ? [previous] : [])];
  }

  /** What a PIN is stored as from now on. */
  current(pin: string): string {
    return keyedPinHash(this.keys[0], pinDigest(pin));
  }

  /** Every hash a stored row of this PIN may still carry: current first. */
  candidates(pin: string): string[] {
    const digest = pinDigest(pin);
    return this.keys.map((key) => keyedPinHash(key, digest));
  }
}
