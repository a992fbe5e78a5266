import { Param, type PipeTransform } from '@nestjs/common';
import { PayhookError, isIdOf, type IdKind } from '@payhook/contracts';
import { addLogFields } from '@payhook/observability';

const LABELS: Record<IdKind, string> = {
  payment: 'payment',
  event: 'event',
  merchant: 'merchant',
  apiKey: 'API key',
  attempt: 'delivery attempt',
  integrationTest: 'integration test',
  deposit: 'deposit',
  reviewCase: 'review case',
  voucher: 'voucher',
  recovery: 'recovery',
  refund: 'refund',
  cashReceipt: 'cash receipt',
  webhookEndpoint: 'webhook endpoint',
  member: 'member',
  invite: 'invite',
  auditEntry: 'audit entry',
  listenSession: 'listen session',
};

/** A malformed id cannot name anything: 404 before any query (and no odd bytes reach Postgres). */
class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly kind: IdKind) {}

  transform(value: string): string {
    if (!isIdOf(this.kind, value))
      throw new PayhookError('resource_not_found', `No such ${LABELS[this.kind]}: ${value.slice(0, 80)}.`, 'id');
    // The request's log lines name what it is about (issue 16).
    if (this.kind === 'payment') addLogFields({ paymentId: value });
    if (this.kind === 'event') addLogFields({ eventId: value });
    return value;
  }
}

/** `@IdParam('payment') id: string`: the route's `:id`, checked to be an id of that kind. */
export const IdParam = (kind: IdKind, name = 'id') => Param(name, new IdPipe(kind));
