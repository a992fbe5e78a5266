// The deposits feature's door: what the other rooms and the surfaces may use of it.
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { DEPOSIT_SCHEMAS } from './deposits.schemas';
