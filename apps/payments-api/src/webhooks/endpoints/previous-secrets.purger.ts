import { PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * Forgets rotated-out signing secrets once their overlap has ended. Nothing signs with
 * one after its expiry either way (every read compares it with now()); this takes it off the disk.
 */
@Injectable()
export class PreviousSecretsPurger extends PeriodicTask {
  protected readonly intervalMs = 60_000;

  constructor(private readonly endpoints: WebhookEndpointsRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    await this.endpoints.forgetExpiredPreviousSecrets();
  }
}
