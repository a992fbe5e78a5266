import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import type { PaymentView } from '@payhook/contracts';
import { AuditLog, type AuditActor } from '../../core/audit';
import {
  Ledger,
  type EscrowTarget,
  type LedgerTx,
  type PaymentRecord,
  type Shipment,
  type ShipmentRefusal,
} from '../../core/ledger';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Mailer } from '../../platform/mail/mailer';
import { toPaymentView } from '../payments';
import { escrowBuyerEmail } from './escrow-buyer-email';
import { escrowLinkDigest, escrowLinkUrl, isEscrowLinkToken, newEscrowLinkToken } from './escrow-link';
import { EscrowException } from './escrow.exception';
import { EscrowRepository, type BuyerEscrow } from './escrow.repository';

const SHIPMENT_REFUSALS: Record<ShipmentRefusal, (paymentId: string) => EscrowException> = {
  payment_not_found: (id) => new EscrowException('resource_not_found', `No such payment: ${id}.`, 'id'),
  payment_not_completed: (id) =>
    new EscrowException('payment_state_conflict', `Payment ${id} is not completed: only paid goods are shipped.`),
  escrow_not_open: (id) =>
    new EscrowException(
      'escrow_state_conflict',
      `Payment ${id} has no escrow waiting for a shipment: it was made without escrow, or its escrow was confirmed or rejected.`,
    ),
};

/** What a buyer's move on the buyer's page came to. */
export type BuyerMoveOutcome = 'done' | 'not_found' | 'not_shipped';

/**
 * Escrow (구매안전서비스): the merchant's shipment, the buyer's confirmation or rejection (the buyer's
 * page, or a test key's helpers acting for the buyer) and the auto-confirm task's batch. The moves are
 * the ledger's (EscrowWrites); this says who may make them and tells the buyer.
 */
@Injectable()
export class EscrowService {
  private readonly logger = new Logger(EscrowService.name);

  constructor(
    private readonly ledger: Ledger,
    private readonly escrows: EscrowRepository,
    private readonly mailer: Mailer,
    private readonly audit: AuditLog,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /**
   * The merchant's shipment (the API or the console), audited. The first e-mails the buyer a link to
   * the buyer's page, after the commit: a payment whose e-mail failed still shipped, and confirms by
   * itself at autoConfirmAt.
   */
  async ship(scope: MerchantScope, paymentId: string, shipment: Shipment, by: AuditActor): Promise<PaymentView> {
    const { token, digest } = newEscrowLinkToken();
    const shipped = await this.ledger.write(async (tx) => {
      const outcome = await tx.escrows.ship(scope, paymentId, shipment, {
        tokenDigest: digest,
        autoConfirmDays: this.env.ESCROW_AUTO_CONFIRM_DAYS,
      });
      if (typeof outcome === 'string') throw SHIPMENT_REFUSALS[outcome](paymentId);
      await this.audit.record(tx.sql, {
        ...by,
        merchantId: scope.merchantId,
        action: 'escrow.shipped',
        target: paymentId,
      });
      return outcome;
    });
    if (shipped.firstShipmentTo) void this.tellBuyer(shipped.payment, shipped.firstShipmentTo, token);
    return toPaymentView(shipped.payment, this.env.PAY_URL);
  }

  /** The test helpers' confirmation, as the buyer's page makes it. */
  async confirmForTest(scope: MerchantScope, paymentId: string): Promise<PaymentView> {
    const confirmed = await this.ledger.write((tx) => tx.escrows.confirm({ scope, paymentId }));
    return this.movedOrRefused(scope, paymentId, confirmed);
  }

  /** The test helpers' rejection, as the buyer's page makes it. */
  async rejectForTest(scope: MerchantScope, paymentId: string, reason: string): Promise<PaymentView> {
    const rejected = await this.ledger.write((tx) => tx.escrows.reject({ scope, paymentId }, reason));
    return this.movedOrRefused(scope, paymentId, rejected);
  }

  /** The escrow a buyer's link names, or null for a link that is not one (never a lookup for a malformed one). */
  async findByLink(token: string): Promise<BuyerEscrow | null> {
    return isEscrowLinkToken(token) ? this.escrows.findByLinkDigest(escrowLinkDigest(token)) : null;
  }

  /** The buyer confirms on the buyer's page: once, and only while the goods are shipped. */
  confirmByLink(token: string): Promise<BuyerMoveOutcome> {
    return this.moveByLink(token, (tx, target) => tx.escrows.confirm(target));
  }

  /** The buyer rejects on the buyer's page, with a reason (checked by the page): once, and only while shipped. */
  rejectByLink(token: string, reason: string): Promise<BuyerMoveOutcome> {
    return this.moveByLink(token, (tx, target) => tx.escrows.reject(target, reason));
  }

  /** The auto-confirm task's batch: how many it confirmed. */
  async confirmDue(batchSize: number): Promise<number> {
    return (await this.ledger.write((tx) => tx.escrows.confirmDue(batchSize))).length;
  }

  private async moveByLink(
    token: string,
    move: (tx: LedgerTx, target: EscrowTarget) => Promise<PaymentRecord | null>,
  ): Promise<BuyerMoveOutcome> {
    if (!isEscrowLinkToken(token)) return 'not_found';
    const tokenDigest = escrowLinkDigest(token);
    const moved = await this.ledger.write((tx) => move(tx, { tokenDigest }));
    if (moved) return 'done';
    return (await this.escrows.findByLinkDigest(tokenDigest)) ? 'not_shipped' : 'not_found';
  }

  private async movedOrRefused(
    scope: MerchantScope,
    paymentId: string,
    moved: PaymentRecord | null,
  ): Promise<PaymentView> {
    if (moved) return toPaymentView(moved, this.env.PAY_URL);
    const payment = await this.escrows.find(scope, paymentId);
    if (!payment) throw new EscrowException('resource_not_found', `No such payment: ${paymentId}.`, 'id');
    throw new EscrowException(
      'escrow_state_conflict',
      `Payment ${paymentId}'s escrow is ${payment.escrow?.status ?? 'absent (it was made without escrow)'}: ` +
        'only a shipped escrow is confirmed or rejected, once.',
    );
  }

  /** The buyer's e-mail, after the shipment committed. Its failure is logged (never the link) and not retried. */
  private async tellBuyer(payment: PaymentRecord, to: string, token: string): Promise<void> {
    try {
      const merchantName = await this.escrows.merchantName(payment.merchantId);
      const link = escrowLinkUrl(this.env.PAY_URL, token);
      await this.mailer.send(escrowBuyerEmail(to, { ...payment, escrow: payment.escrow! }, { merchantName, link }));
    } catch (error) {
      this.logger.error(
        `The buyer's e-mail of escrow payment ${payment.id} was not sent (${(error as Error).message}): ` +
          'the buyer has no link to confirm or reject; the escrow confirms by itself at its autoConfirmAt.',
      );
    }
  }
}
