// The holidays feature's door: what the other rooms and the surfaces may use of it.
// Its module, for the composition root (the operator's holiday routes).
export { HolidaysModule } from './holidays.module';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { HOLIDAY_SCHEMAS } from './holidays.schemas';
