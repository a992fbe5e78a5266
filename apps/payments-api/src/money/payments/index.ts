// The payments feature's door: what the other rooms may use of it.
export { PaymentTransitionsService } from './payment-transitions.service';
export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
