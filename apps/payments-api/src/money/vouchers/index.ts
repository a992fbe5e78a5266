// The vouchers feature's door: what the other rooms and the surfaces may use of it.
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { NEW_VOUCHER_SCHEMAS, VOUCHER_SCHEMAS } from './vouchers.schemas';
