// The payments feature's door: what the other rooms may use of it.
export { PaymentTransitionsService } from './payment-transitions.service';
export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
export { PaymentMoneyRecordsRepository } from './payment-money-records.repository';
export type { PaymentMoneyRecords } from './payment-money-records.repository';
// What a payment's pages show, as the ledger decides it.
export { effectiveStatus } from '../../core/ledger';
export type { PaymentRecord } from '../../core/ledger';
