import { Injectable } from '@nestjs/common';
import { PeriodicTask } from '@payhook/persistence';
import { DeliveryStateRepository } from './delivery-state.repository';
import { EndpointLanesWorker } from './endpoint-lanes.worker';

const INTERVAL_MS = 10_000;
/**
 * How long a recovery's message has to carry it out before the sweep does: well beyond a relay's
 * publish and a handler's statement, so the sweep only picks up lost messages (both at once would be
 * harmless: the first to commit carries it out).
 */
export const RECOVERY_GRACE_MS = 30_000;
const BATCH_SIZE = 100;

/**
 * Makes up for a lost message of payments-api (dead-lettered after its back-offs, or by a dispatcher
 * too old to know it): carries out the recoveries not carried out after RECOVERY_GRACE_MS, from their
 * rows, and ends what deleted endpoints are still owed. Each statement is idempotent, so every
 * dispatcher instance sweeps.
 */
@Injectable()
export class DeliveryStateSweeper extends PeriodicTask {
  protected readonly intervalMs = INTERVAL_MS;

  constructor(
    private readonly state: DeliveryStateRepository,
    private readonly lanes: EndpointLanesWorker,
  ) {
    super();
  }

  /** Carries out a recovery from its row (its message or the sweep); its deliveries wait in the lanes. */
  async applyRecovery(recoveryId: string): Promise<void> {
    const queued = await this.state.applyRecovery(recoveryId);
    if (queued === null) return;
    this.logger.log(`recovery ${recoveryId}: ${queued} deliveries queued again`);
    this.lanes.wake();
  }

  protected async tick(): Promise<void> {
    for (;;) {
      const unapplied = await this.state.unappliedRecoveries(RECOVERY_GRACE_MS, BATCH_SIZE);
      for (const id of unapplied) await this.applyRecovery(id);
      if (unapplied.length < BATCH_SIZE) break;
    }
    for (;;) {
      const deleted = await this.state.deletedEndpointsOwed(BATCH_SIZE);
      for (const id of deleted) await this.state.endDeliveriesOf(id);
      if (deleted.length < BATCH_SIZE) break;
    }
  }
}
