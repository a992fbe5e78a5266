// The vouchers feature's door: what the other rooms and the surfaces may use of it.
// Its module and the redemption of PINs, for the payment screen's voucher page.
export { VouchersModule } from './vouchers.module';
export {
  MAX_PINS_PER_SUBMISSION,
  VoucherRedemptionService,
  type PinOutcome,
  type RedemptionResult,
} from './voucher-redemption.service';
// A voucher's kind, which a payment's money records and the console show.
export type { VoucherKind } from './voucher-issuer';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { NEW_VOUCHER_SCHEMAS, VOUCHER_SCHEMAS } from './vouchers.schemas';
