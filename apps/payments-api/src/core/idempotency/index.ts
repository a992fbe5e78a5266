// The idempotency feature's door: what the money features that create by an Idempotency-Key use of it.
// Its module and the keys' repository, for the creates that replay a key's answer (payments, refunds).
export { IdempotencyModule } from './idempotency.module';
export { IdempotencyKeysRepository } from './idempotency-keys.repository';
// The header's rule, and the fingerprints of the bodies a key is claimed with (plain, or keyed for personal data).
export { parseIdempotencyKey } from './idempotency-key';
export { bodyFingerprint } from './canonical-json';
// And what the re-keying of refund accounts and cash receipt numbers reports of the keys that still
// need the previous key.
export { KeyedFingerprints, keysFingerprintedUnder } from './keyed-fingerprints';
