import { TextDecoder } from 'node:util';

import {
  CASH_RECEIPT_TYPES,
  CURRENCY,
  isIdOf,
  MAX_AMOUNT,
  MIN_AMOUNT,
  WEBHOOK_HEADERS,
  type CashReceiptEvent,
  type EscrowEvent,
  type WebhookEvent,
} from './payhook-contract';
import { standardSignatureProblem } from './standard-webhooks';
import {
  SIGNATURE_REASON_MESSAGES,
  signatureProblem,
  type SignatureCheckOptions,
  type WebhookSignatureErrorReason,
} from './webhook-signature';

/** Why a delivery was refused: the four signature reasons, or a body that is not a payhook event. */
export type WebhookVerificationErrorReason = WebhookSignatureErrorReason | 'body_invalid';

const BODY_INVALID_MESSAGE = 'Webhook body is not a valid payhook event';

/**
 * Thrown by verifyWebhook for every delivery a merchant must refuse (answer it with a 4xx and credit nothing).
 * The message is fixed per reason: nothing derived from the secret or the expected signature leaks out.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationErrorReason,
    message: string = BODY_INVALID_MESSAGE,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface VerifyWebhookOptions {
  /** Accepted distance between the signature's `t` and now, in seconds; the spec's 300 by default. */
  toleranceSeconds?: number;
  /** The current unix time in seconds; for tests. */
  nowSeconds?: number;
  /**
   * The `Service-Event-Id` request header as the HTTP layer hands it over. When given (even as undefined), it
   * must equal the body's `id`: the header is not signed, so a mismatch means someone changed it.
   */
  eventIdHeader?: string | string[] | undefined;
}

/** A request's headers as Node hands them over (`req.headers`); names are matched in any case. */
export type WebhookRequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Verifies a payhook webhook delivery and returns its event (docs/merchant-guide.md, Webhooks): a
 * `WebhookEvent` (a payment's, a refund's, a cash receipt's or an escrow's), so `switch (event.type)` narrows
 * `event.data` to that outcome's fields.
 *
 * The second argument is the `Service-Signature` header, or the request's headers (`req.headers`). Given the
 * headers, it verifies the Standard Webhooks headers when `webhook-signature` is there (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`: one matching `v1,` entry suffices, so a secret still in a
 * rotation's overlap verifies too), else `Service-Signature`; the event id header of the set it verified must
 * equal the body's `id`.
 *
 * Pass the raw request bytes exactly as received (see rawJsonBody()), never a re-serialized object: the
 * signature covers the bytes. The signature is checked first and the body parsed only after it, so nothing
 * unauthenticated is ever parsed. Throws WebhookVerificationError on any problem; a RangeError or TypeError
 * means the call itself is wrong (bad tolerance, a parsed object instead of bytes).
 */
export function verifyWebhook(
  rawBody: Buffer | string,
  signatureHeaderOrHeaders: string | undefined | WebhookRequestHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  if (!Buffer.isBuffer(rawBody) && typeof rawBody !== 'string') {
    throw new TypeError(
      'verifyWebhook needs the raw request body as a Buffer or string; mount rawJsonBody() before any JSON parser',
    );
  }
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyWebhook needs the webhook signing secret (whsec_…)');
  }

  const timing = { toleranceSeconds: options.toleranceSeconds, nowSeconds: options.nowSeconds };
  const { problem, idHeader } = isRequestHeaders(signatureHeaderOrHeaders)
    ? checkRequestHeaders(rawBody, signatureHeaderOrHeaders, secret, timing)
    : { problem: signatureProblem(rawBody, signatureHeaderOrHeaders, secret, timing), idHeader: undefined };
  if (problem !== undefined) throw new WebhookVerificationError(problem, SIGNATURE_REASON_MESSAGES[problem]);

  const event = parseEvent(rawBody);
  if ('eventIdHeader' in options && options.eventIdHeader !== event.id) {
    throw new WebhookVerificationError('body_invalid', 'Service-Event-Id header does not match the event id');
  }
  if (idHeader && idHeader.value !== event.id) {
    throw new WebhookVerificationError('body_invalid', `${idHeader.name} header does not match the event id`);
  }
  return event;
}

/** Arrays stay with the string form: a header array is a malformed signature header, not a headers object. */
function isRequestHeaders(value: unknown): value is WebhookRequestHeaders {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which header set the request is verified by, its verdict, and its event id header to hold to the body. */
function checkRequestHeaders(
  rawBody: Buffer | string,
  headers: WebhookRequestHeaders,
  secret: string,
  timing: SignatureCheckOptions,
): { problem: WebhookSignatureErrorReason | undefined; idHeader: { name: string; value: unknown } } {
  const header = (name: string) => {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : headers[key];
  };
  // The Standard set first: during a rotation's overlap it is signed with the old secret too, while
  // Service-Signature has room for the new secret's alone.
  const standardSignature = header(WEBHOOK_HEADERS.webhookSignature);
  if (standardSignature !== undefined) {
    const id = header(WEBHOOK_HEADERS.webhookId);
    const standard = { id, timestamp: header(WEBHOOK_HEADERS.webhookTimestamp), signature: standardSignature };
    return {
      problem: standardSignatureProblem(rawBody, standard, secret, timing),
      idHeader: { name: WEBHOOK_HEADERS.webhookId, value: id },
    };
  }
  const serviceSignature = header(WEBHOOK_HEADERS.signature);
  const idHeader = { name: WEBHOOK_HEADERS.eventId, value: header(WEBHOOK_HEADERS.eventId) };
  // An array: the header came twice.
  if (Array.isArray(serviceSignature)) return { problem: 'header_malformed', idHeader };
  return { problem: signatureProblem(rawBody, serviceSignature, secret, timing), idHeader };
}

function parseEvent(rawBody: Buffer | string): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : STRICT_UTF8.decode(rawBody));
  } catch (error) {
    throw new WebhookVerificationError('body_invalid', 'Webhook body is not valid UTF-8 JSON', { cause: error });
  }
  if (!isWebhookEvent(parsed)) throw new WebhookVerificationError('body_invalid');
  return parsed;
}

type PaymentOrRefundType = Exclude<WebhookEvent['type'], CashReceiptEvent['type'] | EscrowEvent['type']>;

/** The instant field and the `status` of each payment or refund type's `data`; payment.completed has no `status`. */
const OUTCOMES: Record<PaymentOrRefundType, { instant: string; status?: string; refund?: true }> = {
  'payment.completed': { instant: 'completedAt' },
  'payment.failed': { instant: 'failedAt', status: 'failed' },
  'payment.canceled': { instant: 'canceledAt', status: 'canceled' },
  'payment.expired': { instant: 'expiredAt', status: 'expired' },
  'refund.succeeded': { instant: 'succeededAt', status: 'succeeded', refund: true },
  'refund.failed': { instant: 'failedAt', status: 'failed', refund: true },
};

/**
 * A receipt event's `status`, the field it fills (the tax office's number, or why it failed) with its
 * instant, and the pair that stays null.
 */
const RECEIPT_OUTCOMES: Record<
  CashReceiptEvent['type'],
  { status: string; filled: [string, string]; empty: [string, string] }
> = {
  'cash_receipt.issued': {
    status: 'issued',
    filled: ['issueNumber', 'issuedAt'],
    empty: ['failureReason', 'failedAt'],
  },
  'cash_receipt.failed': {
    status: 'failed',
    filled: ['failureReason', 'failedAt'],
    empty: ['issueNumber', 'issuedAt'],
  },
};

/** An escrow event's `status`: what closed it fills its instant (and a rejection its reason), the rest is null. */
const ESCROW_OUTCOMES: Record<EscrowEvent['type'], EscrowEvent['data']['status']> = {
  'escrow.confirmed': 'confirmed',
  'escrow.rejected': 'rejected',
};

function isWebhookEvent(value: unknown): value is WebhookEvent {
  if (!isRecord(value) || !isRecord(value.data) || typeof value.type !== 'string') return false;
  if (typeof value.id !== 'string' || !isIdOf('event', value.id) || !isTimestamp(value.createdAt)) return false;
  const { data, type } = value;
  if (Object.hasOwn(OUTCOMES, type)) return isOutcomeData(data, OUTCOMES[type as PaymentOrRefundType]);
  if (Object.hasOwn(RECEIPT_OUTCOMES, type))
    return isCashReceiptData(data, RECEIPT_OUTCOMES[type as CashReceiptEvent['type']]);
  if (Object.hasOwn(ESCROW_OUTCOMES, type)) return isEscrowData(data, ESCROW_OUTCOMES[type as EscrowEvent['type']]);
  return false;
}

/** What every event's `data` names: the payment, its order, and an amount payhook could have taken. */
function isPaymentReference(data: Record<string, unknown>): boolean {
  return (
    typeof data.paymentId === 'string' &&
    isIdOf('payment', data.paymentId) &&
    typeof data.orderId === 'string' &&
    data.orderId.length > 0 &&
    typeof data.amount === 'number' &&
    Number.isSafeInteger(data.amount) &&
    data.amount >= MIN_AMOUNT &&
    data.amount <= MAX_AMOUNT
  );
}

function isOutcomeData(data: Record<string, unknown>, outcome: (typeof OUTCOMES)[PaymentOrRefundType]): boolean {
  return (
    isPaymentReference(data) &&
    data.currency === CURRENCY &&
    (outcome.status === undefined || data.status === outcome.status) &&
    isTimestamp(data[outcome.instant]) &&
    (!outcome.refund || isRefundData(data))
  );
}

/** What refund events carry beside the payment's fields: the refund's id and the merchant's reason. */
function isRefundData(data: Record<string, unknown>): boolean {
  return (
    typeof data.refundId === 'string' &&
    isIdOf('refund', data.refundId) &&
    (data.reason === null || (typeof data.reason === 'string' && data.reason.length > 0))
  );
}

/**
 * The receipt as the API shows it: an issue receipt has no refund, a cancel receipt names the one it
 * takes back; the buyer's number (masked), the VAT split in whole won, and the outcome's own fields.
 */
function isCashReceiptData(
  data: Record<string, unknown>,
  outcome: (typeof RECEIPT_OUTCOMES)[CashReceiptEvent['type']],
): boolean {
  const [filledText, filledAt] = outcome.filled;
  const [emptyText, emptyAt] = outcome.empty;
  return (
    typeof data.id === 'string' &&
    isIdOf('cashReceipt', data.id) &&
    isPaymentReference(data) &&
    ((data.transactionType === 'issue' && data.refundId === null) ||
      (data.transactionType === 'cancel' && typeof data.refundId === 'string' && isIdOf('refund', data.refundId))) &&
    (CASH_RECEIPT_TYPES as readonly unknown[]).includes(data.type) &&
    isText(data.identityNumber) &&
    typeof data.selfIssued === 'boolean' &&
    [data.taxFreeAmount, data.vat, data.suppliedAmount].every(isWonPart) &&
    data.status === outcome.status &&
    isText(data[filledText]) &&
    isTimestamp(data[filledAt]) &&
    data[emptyText] === null &&
    data[emptyAt] === null &&
    typeof data.livemode === 'boolean' &&
    isTimestamp(data.createdAt)
  );
}

/**
 * The escrow as it closed, on its payment: a confirmation has its instant and says whether the
 * auto-confirm day made it; a rejection has its instant and the buyer's reason. The other side is null.
 */
function isEscrowData(data: Record<string, unknown>, status: EscrowEvent['data']['status']): boolean {
  const closed =
    status === 'confirmed'
      ? isTimestamp(data.confirmedAt) &&
        typeof data.autoConfirmed === 'boolean' &&
        data.rejectedAt === null &&
        data.rejectReason === null
      : isTimestamp(data.rejectedAt) &&
        isText(data.rejectReason) &&
        data.confirmedAt === null &&
        data.autoConfirmed === null;
  return isPaymentReference(data) && data.currency === CURRENCY && data.status === status && closed;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A part of an amount (tax-free, VAT, supplied value): whole won, 0 or more. */
function isWonPart(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_AMOUNT;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}
