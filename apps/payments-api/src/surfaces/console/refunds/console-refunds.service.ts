import type { AuditActor } from '../../../core/audit';
import { Injectable } from '@nestjs/common';
import { PayhookError, type ErrorCode } from '@payhook/contracts';
import { addLogFields } from '@payhook/observability';
import type { MerchantScope } from '@payhook/auth';
import { RefundsService } from '../../../money/refunds';
import {
  ACCOUNT_FIELDS,
  amountExceededMessage,
  newRefundKey,
  parseRefundForm,
  taxFreeMessage,
  type RefundField,
  type RefundFormErrors,
  type RefundFormValues,
  type RefundRequest,
} from './console-refund-form';
import { ConsolePaymentsService, type PaymentDetail } from '../payments/console-payments.service';
import type { ConsoleRefundsT } from './messages';

/** The payment page again, with the form as typed and why it was refused. */
export interface RefundRefused {
  kind: 'refused';
  status: 400 | 409 | 422;
  detail: PaymentDetail;
  errors: RefundFormErrors;
  /** A refusal of the whole form rather than of one field; like the field errors, in the language of the step's `t`. */
  message: string | null;
}

export type RefundReview =
  { kind: 'confirm'; detail: PaymentDetail; request: RefundRequest; idempotencyKey: string } | RefundRefused;

export type RefundOutcome = { kind: 'created' } | RefundRefused;

/** The console's refund steps over the refunds service: review what was typed, then make the refund once. */
@Injectable()
export class ConsoleRefundsService {
  constructor(
    private readonly payments: ConsolePaymentsService,
    private readonly refunds: RefundsService,
  ) {}

  /** The form checked against the payment as it is now; a valid one gets the confirmation's idempotency key. */
  async review(
    scope: MerchantScope,
    paymentId: string,
    values: RefundFormValues,
    t: ConsoleRefundsT,
  ): Promise<RefundReview> {
    const detail = await this.payments.detail(scope, paymentId);
    if (detail.status !== 'completed') return refused(409, detail, {}, t('error.notCompleted'));
    if (detail.refundable === 0) return nothingLeft(t, detail);
    const rules = { live: scope.livemode, maxAmount: detail.refundable, notYetRefunded: detail.notYetRefunded };
    const parsed = parseRefundForm(values, rules, t);
    if (parsed.kind === 'invalid') return refused(400, detail, parsed.errors);
    return { kind: 'confirm', detail, request: parsed.request, idempotencyKey: newRefundKey() };
  }

  /**
   * The confirmed refund. The remainder is the refund service's to check, after its idempotency
   * replay: a second press of Confirm must find the first refund, not "nothing left".
   */
  async create(
    scope: MerchantScope,
    paymentId: string,
    idempotencyKey: string,
    values: RefundFormValues,
    by: AuditActor,
    t: ConsoleRefundsT,
  ): Promise<RefundOutcome> {
    const parsed = parseRefundForm(values, { live: scope.livemode }, t);
    if (parsed.kind === 'invalid') return refused(400, await this.payments.detail(scope, paymentId), parsed.errors);
    try {
      await this.refunds.create(scope, paymentId, idempotencyKey, parsed.request, by);
      // The request's lines name the payment it refunded, as the API's route does.
      addLogFields({ paymentId });
      return { kind: 'created' };
    } catch (error) {
      if (!(error instanceof PayhookError)) throw error;
      return this.refusal(scope, paymentId, error, t, parsed.request);
    }
  }

  /**
   * The refund service's refusals the form can explain; any other (resource_not_found…) is an error
   * page. A parameter the form let through is shown in the API's own words.
   */
  private async refusal(
    scope: MerchantScope,
    paymentId: string,
    error: PayhookError,
    t: ConsoleRefundsT,
    request: RefundRequest,
  ): Promise<RefundOutcome> {
    const { code } = error;
    if (!FORM_REFUSALS.has(code)) throw error;
    const detail = await this.payments.detail(scope, paymentId);
    if (code === 'refund_amount_exceeded') {
      if (detail.refundable === 0) return nothingLeft(t, detail);
      return refused(409, detail, { amount: amountExceededMessage(t, detail.refundable) });
    }
    if (code === 'payment_state_conflict') return refused(409, detail, {}, t('error.notCompleted'));
    if (code === 'idempotency_key_reused') return refused(422, detail, {}, t('error.keyReused'));
    // Another refund took what the review counted on: said against what is left now, in the form's words.
    if (error.param === 'taxFreeAmount') {
      const now =
        request.taxFreeAmount === undefined
          ? null
          : taxFreeMessage(t, request.amount, request.taxFreeAmount, detail.notYetRefunded);
      return refused(400, detail, { taxFreeAmount: now ?? t('error.taxFreeChanged') });
    }
    const field = fieldOf(error.param);
    return field ? refused(400, detail, { [field]: error.message }) : refused(400, detail, {}, error.message);
  }
}

const FORM_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'refund_amount_exceeded',
  'payment_state_conflict',
  'idempotency_key_reused',
  'parameter_missing',
  'parameter_invalid',
]);

function refused(
  status: RefundRefused['status'],
  detail: PaymentDetail,
  errors: RefundFormErrors,
  message: string | null = null,
): RefundRefused {
  return { kind: 'refused', status, detail, errors, message };
}

/** A fully refunded payment has no form to mark a field of. */
function nothingLeft(t: ConsoleRefundsT, detail: PaymentDetail): RefundRefused {
  return refused(409, detail, {}, amountExceededMessage(t, 0));
}

/** `amount`, `reason` or `refundAccount.bank` (a missing account: its first field) to the form's field. */
function fieldOf(param: string | undefined): RefundField | null {
  if (param === 'amount' || param === 'taxFreeAmount' || param === 'reason') return param;
  if (param === 'refundAccount') return ACCOUNT_FIELDS[0];
  const inner = param?.startsWith('refundAccount.') ? param.slice('refundAccount.'.length) : undefined;
  return ACCOUNT_FIELDS.find((name) => name === inner) ?? null;
}
