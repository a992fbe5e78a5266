import { Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import { PayhookError, isIdOf } from '@payhook/contracts';
import { addLogFields } from '@payhook/observability';
import type { AuditActor } from '../../../core/audit';
import { EscrowService } from '../../../money/escrow';
import { PaymentException, PaymentsRepository } from '../../../money/payments';
import { ConsolePaymentsService, type PaymentDetail } from '../payments/console-payments.service';
import { parseShipmentForm, type ShipmentFormErrors, type ShipmentFormValues } from './console-shipment-form';
import type { ConsoleEscrowT } from './messages';

/** The payment page again, with the form as typed and why it was refused. */
export interface ShipmentRefused {
  kind: 'refused';
  status: 400 | 409;
  detail: PaymentDetail;
  errors: ShipmentFormErrors;
  /** A refusal of the whole form (the escrow takes no shipment now), in the language of `t`. */
  message: string | null;
}

/** Saved: a first shipment, or a correction of one (the page's notice says which). */
export type ShipmentOutcome = { kind: 'shipped' | 'corrected' } | ShipmentRefused;

/** The console's shipment form over the escrow service: the form's rules, then the shipment, audited as the member's. */
@Injectable()
export class ConsoleEscrowService {
  constructor(
    private readonly escrow: EscrowService,
    private readonly paymentRecords: PaymentsRepository,
    private readonly payments: ConsolePaymentsService,
  ) {}

  async ship(
    scope: MerchantScope,
    paymentId: string,
    values: ShipmentFormValues,
    by: AuditActor,
    t: ConsoleEscrowT,
  ): Promise<ShipmentOutcome> {
    // A malformed id names nothing, and odd bytes must not reach Postgres.
    const before = isIdOf('payment', paymentId) ? await this.paymentRecords.findById(scope, paymentId) : null;
    if (!before) throw new PaymentException('resource_not_found', `No such payment: ${paymentId}.`, 'id');
    const parsed = parseShipmentForm(values, t);
    if (parsed.kind === 'invalid') return refused(400, await this.payments.detail(scope, paymentId), parsed.errors);
    try {
      await this.escrow.ship(scope, paymentId, parsed.shipment, by);
    } catch (error) {
      if (!(error instanceof PayhookError)) throw error;
      if (error.code === 'payment_state_conflict' || error.code === 'escrow_state_conflict') {
        const message = t(
          error.code === 'payment_state_conflict'
            ? 'error.notCompleted'
            : before.escrow === null
              ? 'error.noEscrow'
              : 'error.notOpen',
        );
        return refused(409, await this.payments.detail(scope, paymentId), {}, message);
      }
      throw error;
    }
    // The request's lines name the payment it shipped, as the API's route does.
    addLogFields({ paymentId });
    // The state read before is only for the notice's words: the escrow service decided, under the payment's lock.
    return { kind: before.escrow?.status === 'shipped' ? 'corrected' : 'shipped' };
  }
}

function refused(
  status: ShipmentRefused['status'],
  detail: PaymentDetail,
  errors: ShipmentFormErrors,
  message: string | null = null,
): ShipmentRefused {
  return { kind: 'refused', status, detail, errors, message };
}
