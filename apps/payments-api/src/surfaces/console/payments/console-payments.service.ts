import { Inject, Injectable } from '@nestjs/common';
import {
  PayhookError,
  isIdOf,
  type CashReceiptView,
  type EventView,
  type ListEnvelope,
  type PaymentStatus,
  type RefundView,
} from '@payhook/contracts';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { EventException, EventsService } from '../../../webhooks/events';
import {
  effectiveStatus,
  PaymentException,
  PaymentMoneyRecordsRepository,
  PaymentsRepository,
  PaymentsService,
  payUrlOf,
  type ListPaymentsQueryDto,
  type PaymentMoneyRecords,
  type PaymentRecord,
} from '../../../money/payments';
import type { MerchantScope } from '@payhook/auth';
import { CashReceiptsService } from '../../../money/cash-receipts';
import { RefundsService, type NotYetRefunded } from '../../../money/refunds';
import { SettlementsRepository, type SettlementView } from '../../../money/settlements';
import type { ConsolePaymentsT } from './messages';

export type PaymentsPage = { kind: 'page'; page: ListEnvelope<PaymentRecord> } | { kind: 'invalid'; message: string };

export interface PaymentHistoryEntry {
  status: PaymentStatus;
  at: Date;
}

export interface PaymentDetail {
  payment: PaymentRecord;
  /** As the API shows it: a pending payment past expiresAt is expired. */
  status: PaymentStatus;
  payUrl: string;
  history: PaymentHistoryEntry[];
  /** Newest first, each with its delivery attempts oldest first. */
  events: EventView[];
  money: PaymentMoney;
  /** Newest first. */
  refunds: RefundView[];
  /** What a new refund may still take: the amount less vouchers, succeeded and pending refunds; 0 unless completed. */
  refundable: number;
  /** The amount and tax-free part no refund has taken yet: the refund form's tax-free rules read them. */
  notYetRefunded: NotYetRefunded;
  /** Its cash receipts (issue and cancel), newest first, the buyer's number masked as the API shows it. */
  cashReceipts: CashReceiptView[];
}

/** How the payment was paid: its settlement record, deposits, deposit code, vouchers and review cases. */
export interface PaymentMoney extends PaymentMoneyRecords {
  /** Null until the payment completes. */
  settlement: SettlementView | null;
}

/** Enough for any payment: each completion writes one event, and redeliveries reuse it. */
const EVENTS_PER_PAYMENT = 100;

@Injectable()
export class ConsolePaymentsService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly paymentRecords: PaymentsRepository,
    private readonly events: EventsService,
    private readonly settlements: SettlementsRepository,
    private readonly moneyRecords: PaymentMoneyRecordsRepository,
    private readonly refunds: RefundsService,
    private readonly cashReceipts: CashReceiptsService,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /**
   * The API's list with its rules (filters, keyset cursor); a refused query is shown, not thrown: a
   * stale cursor in the page's words (`t`), anything else the console let through in the API's.
   */
  async list(scope: MerchantScope, query: ListPaymentsQueryDto, t: ConsolePaymentsT): Promise<PaymentsPage> {
    try {
      return { kind: 'page', page: await this.payments.listRecords(scope, query) };
    } catch (error) {
      if (!(error instanceof PayhookError) || error.code !== 'parameter_invalid') throw error;
      return { kind: 'invalid', message: error.param === 'cursor' ? t('filters.cursor') : error.message };
    }
  }

  async detail(scope: MerchantScope, id: string): Promise<PaymentDetail> {
    // A malformed id names nothing, and odd bytes must not reach Postgres.
    const payment = isIdOf('payment', id) ? await this.paymentRecords.findById(scope, id) : null;
    if (!payment) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
    const status = effectiveStatus(payment);
    const events = await this.events.ofPayment(scope, id, EVENTS_PER_PAYMENT);
    const refunds = await this.refunds.ofPayment(scope, id);
    return {
      payment,
      status,
      payUrl: payUrlOf(this.env.PAY_URL, payment.paySuffix),
      history: await this.history(scope, payment, status),
      events,
      money: await this.money(scope, id),
      refunds,
      // The refund service's number: the guarded hold's remainder, voucher part excluded.
      refundable: status === 'completed' ? await this.refunds.refundable(scope, id) : 0,
      notYetRefunded: await this.refunds.notYetRefunded(scope, id),
      cashReceipts: await this.cashReceipts.ofPayment(scope, id),
    };
  }

  private async money(scope: MerchantScope, paymentId: string): Promise<PaymentMoney> {
    const [settlement, records] = await Promise.all([
      this.settlements.findForPayment(scope, paymentId),
      this.moneyRecords.forPayment(scope, paymentId),
    ]);
    return { settlement, ...records };
  }

  /** One more attempt of an event of this payment (same id and body, fresh signature). */
  async redeliver(scope: MerchantScope, paymentId: string, eventId: string): Promise<void> {
    if (!isIdOf('event', eventId)) throw new EventException('resource_not_found', `No such event.`, 'id');
    const event = await this.events.get(scope, eventId);
    if (event.data.paymentId !== paymentId) {
      throw new EventException('resource_not_found', `No such event: ${eventId}.`, 'id');
    }
    await this.events.redeliver(scope, eventId, null);
  }

  /** Created, then how it ended: completion time, the fail/cancel transition, or the expiry instant. */
  private async history(
    scope: MerchantScope,
    payment: PaymentRecord,
    status: PaymentStatus,
  ): Promise<PaymentHistoryEntry[]> {
    const created: PaymentHistoryEntry = { status: 'pending', at: payment.createdAt };
    switch (status) {
      case 'pending':
        return [created];
      case 'completed':
        return [created, { status, at: payment.completedAt ?? payment.createdAt }];
      case 'expired':
        return [created, { status, at: payment.expiresAt }];
      case 'failed':
      case 'canceled':
        return [
          created,
          { status, at: (await this.paymentRecords.findFinishedAt(scope, payment.id)) ?? payment.createdAt },
        ];
    }
  }
}
