import { randomUUID } from 'node:crypto';
import type {
  CashReceiptView,
  CreatedPaymentView,
  CreatePaymentBody,
  EventType,
  PayhookClient,
  PaymentView,
} from '@payhook/sdk';
import { asCliError, connect, parseCommand, requireTestKey } from '../cli-context';
import { EXIT, usageError } from '../cli-error';
import { EVENT_TYPES, isEventType } from '../event-types';
import { TRIGGER_HELP } from '../help';
import { print } from '../output';

/** The buyer of a triggered escrow: a reserved domain, so the confirmation e-mail reaches no one. */
const ESCROW_BUYER = { buyerEmail: 'buyer@example.com' };

/**
 * What create asks for beside the payment, for the events that need more. A test receipt is issued when
 * its payment completes; the documented failing test number 01000000000 makes it fail (identity_rejected).
 */
const CREATE_EXTRAS: Partial<Record<EventType, Pick<CreatePaymentBody, 'cashReceipt' | 'escrow'>>> = {
  'cash_receipt.issued': { cashReceipt: { type: 'income_deduction', identityNumber: '01012345678' } },
  'cash_receipt.failed': { cashReceipt: { type: 'income_deduction', identityNumber: '01000000000' } },
  'escrow.confirmed': { escrow: ESCROW_BUYER },
  'escrow.rejected': { escrow: ESCROW_BUYER },
};

/** The steps after a payment is created that end in the event. */
const RECIPES: Record<EventType, (client: PayhookClient, payment: CreatedPaymentView) => Promise<string[]>> = {
  'payment.completed': async (client, payment) => [moved(await client.moveTestPayment(payment.id, 'complete'))],
  'payment.failed': async (client, payment) => [moved(await client.moveTestPayment(payment.id, 'fail'))],
  'payment.canceled': async (client, payment) => [moved(await client.cancelPayment(payment.id))],
  'payment.expired': async (client, payment) => [moved(await client.moveTestPayment(payment.id, 'expire'))],
  'refund.succeeded': async (client, payment) => {
    const completed = await client.moveTestPayment(payment.id, 'complete');
    const refund = await client.createRefund(payment.id, { reason: 'payhook trigger refund.succeeded' });
    return [moved(completed), `refund ${refund.id} ${refund.status}`];
  },
  'refund.failed': async (client, payment) => {
    const completed = await client.moveTestPayment(payment.id, 'complete');
    const refund = await client.createFailedTestRefund(payment.id, { reason: 'payhook trigger refund.failed' });
    return [moved(completed), `refund ${refund.id} ${refund.status}`];
  },
  'cash_receipt.issued': completedWithReceipt,
  'cash_receipt.failed': completedWithReceipt,
  'escrow.confirmed': async (client, payment) => {
    const shipped = await completedAndShipped(client, payment);
    return [...shipped, escrowLine(await client.confirmTestEscrow(payment.id))];
  },
  'escrow.rejected': async (client, payment) => {
    const shipped = await completedAndShipped(client, payment);
    return [...shipped, escrowLine(await client.rejectTestEscrow(payment.id, 'payhook trigger escrow.rejected'))];
  },
};

/** Completing a payment that asked for a receipt makes the receipt, issued or failed at once in test mode. */
async function completedWithReceipt(client: PayhookClient, payment: CreatedPaymentView): Promise<string[]> {
  const completed = await client.moveTestPayment(payment.id, 'complete');
  const { data: receipts } = await client.listCashReceipts({ paymentId: payment.id });
  return [moved(completed), ...receipts.map(receiptLine)];
}

/** An escrow payment, completed and shipped: the buyer's test helpers act only on a shipped escrow. */
async function completedAndShipped(client: PayhookClient, payment: CreatedPaymentView): Promise<string[]> {
  const completed = await client.moveTestPayment(payment.id, 'complete');
  const shipped = await client.shipEscrow(payment.id, { carrier: 'payhook CLI', trackingNumber: payment.orderId });
  return [moved(completed), escrowLine(shipped)];
}

const moved = (payment: PaymentView) => `payment ${payment.id} ${payment.status}`;

const receiptLine = (receipt: CashReceiptView) =>
  `cash receipt ${receipt.id} ${receipt.status}` +
  (receipt.issueNumber !== null ? ` (issue number ${receipt.issueNumber})` : '') +
  (receipt.failureReason !== null ? ` (${receipt.failureReason})` : '');

const escrowLine = ({ id, escrow }: PaymentView) => {
  if (escrow === null) return `payment ${id} has no escrow`;
  const shipment = escrow.status === 'shipped' ? ` (${escrow.carrier} ${escrow.trackingNumber})` : '';
  const reason = escrow.rejectReason === null ? '' : ` (${escrow.rejectReason})`;
  return `escrow of ${id} ${escrow.status}${shipment}${reason}`;
};

export async function triggerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, { amount: { type: 'string' } }, 'trigger');
  if (values.help) {
    print(TRIGGER_HELP);
    return EXIT.ok;
  }
  const [type, extra] = positionals;
  if (type === undefined) throw usageError('Which event? payhook trigger <type>', 'trigger');
  if (!isEventType(type))
    throw usageError(`Unknown event type "${type}": use one of ${EVENT_TYPES.join(', ')}`, 'trigger');
  if (extra !== undefined) throw usageError(`Unexpected argument "${extra}"`, 'trigger');
  const amount = values.amount === undefined ? 15_000 : Number(values.amount);
  if (!Number.isSafeInteger(amount) || amount < 1)
    throw usageError('--amount must be a whole number of won', 'trigger');
  const connection = connect(values, 'trigger');
  const { client, apiUrl } = connection;
  requireTestKey(connection, 'payhook trigger');
  try {
    const orderId = `cli-${randomUUID()}`;
    const payment = await client.createPayment(
      {
        orderId,
        customerId: 'payhook-cli',
        amount,
        currency: 'KRW',
        returnUrl: `${apiUrl.replace(/\/+$/, '')}/`,
        ...CREATE_EXTRAS[type],
      },
      { idempotencyKey: `payhook-trigger-${orderId}` },
    );
    print(`payment ${payment.id} created (order ${orderId}, ₩${amount.toLocaleString('en-US')})`);
    for (const line of await RECIPES[type](client, payment)) print(line);
    print(`Triggered ${type}.`);
    return EXIT.ok;
  } catch (error) {
    throw asCliError(error, apiUrl);
  }
}
