// The refunds feature's door: what the other rooms and the surfaces may use of it.
export { RefundsModule } from './refunds.module';
export { RefundsService } from './refunds.service';
// The refund body's rules, which the console's refund form is checked by too.
export {
  CreateRefundRequestDto,
  MIN_REFUND_AMOUNT,
  REFUND_ACCOUNT_FIELD_MAX_CHARS,
  REFUND_REASON_MAX_CHARS,
} from './dto/create-refund.request.dto';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { REFUND_SCHEMAS } from './refunds.schemas';
// A refund's tax-free rules and its default share, as the ledger decides them: the console's refund
// form checks and shows them in its own words.
export {
  defaultRefundTaxFree,
  refundTaxFreeProblem,
  type NotYetRefunded,
  type RefundTaxFreeProblem,
} from '../../core/ledger';
