import type { EventType } from '@payhook/sdk';

/** Every event type payhook sends, in the order the CLI lists them. */
export const EVENT_TYPES: readonly EventType[] = [
  'payment.completed',
  'payment.failed',
  'payment.canceled',
  'payment.expired',
  'refund.succeeded',
  'refund.failed',
  'cash_receipt.issued',
  'cash_receipt.failed',
  'escrow.confirmed',
  'escrow.rejected',
];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);
