// The reviews feature's door: what the other rooms and the surfaces may use of it.
// Its module, for the composition root (the operator's review routes).
export { ReviewsModule } from './reviews.module';
// A review case's source and actions, which a payment's money records carry.
export type { ReviewAction, ReviewSource } from './review-case.view';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { REVIEW_SCHEMAS } from './reviews.schemas';
