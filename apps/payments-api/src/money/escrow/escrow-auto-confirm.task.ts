import { Injectable } from '@nestjs/common';
import { inBatches, PeriodicTask } from '@payhook/persistence';
import { EscrowService } from './escrow.service';

const BATCH_SIZE = 200;

/**
 * Confirms every shipped escrow past its autoConfirmAt (the buyer left it open), each once with its
 * escrow.confirmed event (autoConfirmed true) and its payout scheduled. Every API instance runs it;
 * the ledger's batch skips rows another instance holds, so an escrow is confirmed by one of them.
 */
@Injectable()
export class EscrowAutoConfirmTask extends PeriodicTask {
  protected readonly intervalMs = 5_000;

  constructor(private readonly escrow: EscrowService) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.escrow.confirmDue(size));
  }
}
