import { Injectable } from '@nestjs/common';
import { EscrowService, isRejectReason, type BuyerEscrow, type BuyerMoveOutcome } from '../../money/escrow';
import type { BuyerEscrowPage } from './escrow-page.view';

/** What a form on the buyer's page came to. */
export type EscrowPageMove =
  | { kind: 'not_found' }
  /** Moved: the page, opened again, shows the outcome. */
  | { kind: 'done' }
  /** The escrow is not shipped any more (confirmed, rejected, confirmed by itself): nothing changed. */
  | { kind: 'refused'; escrow: BuyerEscrowPage }
  /** Not a reason (the rule of isRejectReason): nothing changed; the typed text goes back into the field. */
  | { kind: 'invalid_reason'; escrow: BuyerEscrowPage; reason: string };

function toPage({ payment, merchantName }: BuyerEscrow): BuyerEscrowPage | null {
  const { escrow } = payment;
  if (!escrow) return null;
  return {
    merchantName,
    orderId: payment.orderId,
    amount: payment.amount,
    livemode: payment.livemode,
    status: escrow.status,
    carrier: escrow.carrier,
    trackingNumber: escrow.trackingNumber,
    autoConfirmAt: escrow.autoConfirmAt,
    confirmedAt: escrow.confirmedAt,
    autoConfirmed: escrow.autoConfirmed,
    rejectedAt: escrow.rejectedAt,
    rejectReason: escrow.rejectReason,
  };
}

/**
 * The buyer's page of an escrow payment: reads and moves by the link's token, through the escrow
 * feature (which checks the token's shape, finds it by its digest, and moves only a shipped escrow, once).
 */
@Injectable()
export class EscrowPageService {
  constructor(private readonly escrows: EscrowService) {}

  async find(token: string): Promise<BuyerEscrowPage | null> {
    const found = await this.escrows.findByLink(token);
    return found ? toPage(found) : null;
  }

  async confirm(token: string): Promise<EscrowPageMove> {
    return this.after(token, await this.escrows.confirmByLink(token));
  }

  /**
   * A reason as a browser sends a textarea (CRLF line breaks) is kept with LF ones, as typed. The
   * escrow's state is told before the reason's fault: a settled escrow has no form to correct.
   */
  async reject(token: string, typed: string | undefined): Promise<EscrowPageMove> {
    const escrow = await this.find(token);
    if (!escrow) return { kind: 'not_found' };
    if (escrow.status !== 'shipped') return { kind: 'refused', escrow };
    const reason = (typed ?? '').replace(/\r\n?/g, '\n');
    if (!isRejectReason(reason)) return { kind: 'invalid_reason', escrow, reason };
    return this.after(token, await this.escrows.rejectByLink(token, reason));
  }

  private async after(token: string, moved: BuyerMoveOutcome): Promise<EscrowPageMove> {
    if (moved === 'done') return { kind: 'done' };
    const escrow = moved === 'not_shipped' ? await this.find(token) : null;
    return escrow ? { kind: 'refused', escrow } : { kind: 'not_found' };
  }
}
