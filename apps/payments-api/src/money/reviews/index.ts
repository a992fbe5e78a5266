// The reviews feature's door: what the other rooms and the surfaces may use of it.
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { REVIEW_SCHEMAS } from './reviews.schemas';
