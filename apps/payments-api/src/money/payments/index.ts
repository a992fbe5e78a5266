// The payments feature's door: what the other rooms may use of it.
export { PaymentTransitionsService } from './payment-transitions.service';
export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
export { PaymentMoneyRecordsRepository } from './payment-money-records.repository';
export type { PaymentMoneyRecords } from './payment-money-records.repository';
// What a payment's pages show, as the ledger decides it.
export { effectiveStatus } from '../../core/ledger';
export type { PaymentRecord } from '../../core/ledger';
// The list query's rules, which the console's payment filters are checked by too.
export { ListPaymentsQueryDto } from './dto/list-payments.query.dto';
export { CUSTOMER_ID_MAX_CHARS, ORDER_ID_MAX_CHARS, ORDER_ID_RULE } from './dto/create-payment.request.dto';
// Its response shapes, for the OpenAPI documents, and the amount the events' shapes carry too.
export { krwAmount, PAYMENT_SCHEMAS } from './payments.schemas';
