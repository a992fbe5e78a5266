/**
 * Messages from payments-api to webhook-dispatcher that ask for a change of delivery state: the
 * dispatcher alone changes webhook_deliveries once they exist, so the API states its intent here
 * (through its outbox, in the transaction of the request) and the dispatcher carries it out. Only a
 * speed-up: the dispatcher's sweep does the same from the rows should a message be lost. A
 * published version is never edited; a change means a new type name beside this one.
 */
export const WEBHOOK_RECOVERY_REQUESTED_V1 = 'webhook.recovery-requested.v1';

/**
 * POST /v1/events/recover: every failed delivery of the scope (to `endpointId` only, when not null)
 * of an event created since `since` is sent again under `recoveryId`, oldest first, as a fresh
 * automatic delivery; so is every failed event that had no endpoint to go to.
 */
export interface WebhookRecoveryRequestedV1 {
  type: typeof WEBHOOK_RECOVERY_REQUESTED_V1;
  recoveryId: string;
  merchantId: string;
  livemode: boolean;
  since: string;
  endpointId: string | null;
  requestedAt: string;
}

export const WEBHOOK_ENDPOINT_DELETED_V1 = 'webhook.endpoint-deleted.v1';

/** A webhook endpoint was deleted: what it was still owed ends failed (`endpoint_deleted`). */
export interface WebhookEndpointDeletedV1 {
  type: typeof WEBHOOK_ENDPOINT_DELETED_V1;
  endpointId: string;
  merchantId: string;
  livemode: boolean;
  requestedAt: string;
}

// Ids as the API wrote them from its own rows: checked for their kind, not their length.
const RECOVERY_ID = /^rcv_\w+$/;
const ENDPOINT_ID = /^we_\w+$/;
const MERCHANT_ID = /^mch_\w+$/;

function objectOf(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isInstant = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** Null for anything that is not a well-formed recovery request: such a message is poison. */
export function parseWebhookRecoveryRequest(raw: string): WebhookRecoveryRequestedV1 | null {
  const message = objectOf(raw);
  if (
    !message ||
    message.type !== WEBHOOK_RECOVERY_REQUESTED_V1 ||
    typeof message.recoveryId !== 'string' ||
    !RECOVERY_ID.test(message.recoveryId) ||
    typeof message.merchantId !== 'string' ||
    !MERCHANT_ID.test(message.merchantId) ||
    typeof message.livemode !== 'boolean' ||
    !isInstant(message.since) ||
    !(
      message.endpointId === null ||
      (typeof message.endpointId === 'string' && ENDPOINT_ID.test(message.endpointId))
    ) ||
    !isInstant(message.requestedAt)
  ) {
    return null;
  }
  const { recoveryId, merchantId, livemode, since, endpointId, requestedAt } = message;
  return { type: WEBHOOK_RECOVERY_REQUESTED_V1, recoveryId, merchantId, livemode, since, endpointId, requestedAt };
}

/** Null for anything that is not a well-formed endpoint deletion: such a message is poison. */
export function parseWebhookEndpointDeleted(raw: string): WebhookEndpointDeletedV1 | null {
  const message = objectOf(raw);
  if (
    !message ||
    message.type !== WEBHOOK_ENDPOINT_DELETED_V1 ||
    typeof message.endpointId !== 'string' ||
    !ENDPOINT_ID.test(message.endpointId) ||
    typeof message.merchantId !== 'string' ||
    !MERCHANT_ID.test(message.merchantId) ||
    typeof message.livemode !== 'boolean' ||
    !isInstant(message.requestedAt)
  ) {
    return null;
  }
  const { endpointId, merchantId, livemode, requestedAt } = message;
  return { type: WEBHOOK_ENDPOINT_DELETED_V1, endpointId, merchantId, livemode, requestedAt };
}
