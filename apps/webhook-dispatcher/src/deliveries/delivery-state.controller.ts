import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { parseWebhookEndpointDeleted, parseWebhookRecoveryRequest } from '@payhook/contracts';
import {
  WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY,
  WEBHOOK_RECOVER_ROUTING_KEY,
  type QueueDecision,
  type QueueMessageContext,
} from '@payhook/messaging';
import { causingRequestId, inSpan, SpanKind, withLogFields } from '@payhook/observability';
import { isDatabaseUnavailable } from '@payhook/persistence';
import { DeliveryStateRepository } from './delivery-state.repository';
import { DeliveryStateSweeper } from './delivery-state.sweeper';

/**
 * What payments-api asks of deliveries that exist, from its outbox (webhook.recovery-requested.v1,
 * webhook.endpoint-deleted.v1): the dispatcher alone changes them. Acknowledged once the change is
 * committed; a crash before that brings the message back, and doing it again changes nothing more.
 * A message lost on the way is made up for by DeliveryStateSweeper.
 */
@Controller()
export class DeliveryStateController {
  constructor(
    private readonly state: DeliveryStateRepository,
    private readonly sweeper: DeliveryStateSweeper,
  ) {}

  @EventPattern<string>(WEBHOOK_RECOVER_ROUTING_KEY)
  recover(@Payload() body: string, @Ctx() context: QueueMessageContext): Promise<QueueDecision> {
    const recovery = parseWebhookRecoveryRequest(body);
    if (!recovery)
      return Promise.resolve({ kind: 'dead-letter', reason: 'not a webhook.recovery-requested.v1 message' });
    // Only a speed-up: the row holds the recovery, and the sweep carries it out should this be lost.
    return this.handled(WEBHOOK_RECOVER_ROUTING_KEY, context.getHeaders(), () =>
      this.sweeper.applyRecovery(recovery.recoveryId),
    );
  }

  @EventPattern<string>(WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY)
  endpointDeleted(@Payload() body: string, @Ctx() context: QueueMessageContext): Promise<QueueDecision> {
    const deleted = parseWebhookEndpointDeleted(body);
    if (!deleted) return Promise.resolve({ kind: 'dead-letter', reason: 'not a webhook.endpoint-deleted.v1 message' });
    return this.handled(WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY, context.getHeaders(), () =>
      this.state.endDeliveriesOf(deleted.endpointId),
    );
  }

  /** Runs `work` in the request's log context and trace; a failure backs off (not counted for an outage). */
  private handled(pattern: string, headers: Record<string, string>, work: () => Promise<void>): Promise<QueueDecision> {
    return withLogFields({ requestId: causingRequestId(headers) }, () =>
      inSpan(`${pattern} process`, { kind: SpanKind.CONSUMER, parent: headers }, async (): Promise<QueueDecision> => {
        try {
          await work();
          return { kind: 'ack' };
        } catch (error) {
          return { kind: 'back-off', reason: String(error), counts: !isDatabaseUnavailable(error) };
        }
      }),
    );
  }
}
