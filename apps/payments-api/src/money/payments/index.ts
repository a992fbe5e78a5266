// The payments feature's door: what the other rooms may use of it.
export { PaymentTransitionsService, type FinalStatus } from './payment-transitions.service';
export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
export { PaymentsRepository } from './payments.repository';
export { PaymentException } from './payment.exception';
// A payment's money records (deposits, vouchers, review cases, refund settlements), for the console's payment page.
export { PaymentMoneyRecordsRepository } from './payment-money-records.repository';
export type {
  PaymentDeposit,
  PaymentMoneyRecords,
  PaymentReviewCase,
  PaymentVoucher,
  RefundSettlementRecord,
} from './payment-money-records.repository';
// What a payment's pages show, as the ledger decides it, and the payment screen's address they link to.
export { effectiveStatus, paymentBreakdown } from '../../core/ledger';
export type { PaymentRecord } from '../../core/ledger';
export { payUrlOf, toEscrowView, toPaymentView } from './payment.view';
// The list query's rules, which the console's payment filters are checked by too.
export { ListPaymentsQueryDto } from './dto/list-payments.query.dto';
export { CUSTOMER_ID_MAX_CHARS, ORDER_ID_MAX_CHARS, ORDER_ID_RULE } from './dto/create-payment.request.dto';
// Its response shapes, for the OpenAPI documents, and the amount and metadata the events' and refunds' shapes carry too.
export { krwAmount, metadataSchema, PAYMENT_SCHEMAS } from './payments.schemas';
