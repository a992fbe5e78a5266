import type { INestApplication } from '@nestjs/common';
import { isolatedServices, type IsolatedServices } from './isolated-services';
import { PaymentsApiHarness } from './payments-api.harness';
import { startDispatcher } from './webhook-dispatcher.harness';
import { WebhookReceiver } from './webhook-receiver';

/** An API, a dispatcher and a merchant's receiver on a database and namespace of their own. */
export interface WebhookStack {
  api: PaymentsApiHarness;
  dispatcher: INestApplication;
  receiver: WebhookReceiver;
  services: IsolatedServices;
  stop(): Promise<void>;
}

/**
 * For specs that count deliveries: no other spec's apps can deliver (or count) these events.
 * `overrides` go to both apps (timeouts, retry schedule).
 */
export async function startWebhookStack(label: string, overrides: Record<string, string> = {}): Promise<WebhookStack> {
  const services = await isolatedServices(label);
  const [api, dispatcher, receiver] = await Promise.all([
    PaymentsApiHarness.start({ ...services.env, ...overrides }),
    startDispatcher({ ...services.env, ...overrides }),
    WebhookReceiver.start(),
  ]);
  return {
    api,
    dispatcher,
    receiver,
    services,
    stop: async () => {
      await dispatcher.close();
      await api.stop();
      await receiver.stop();
      await services.drop();
    },
  };
}
