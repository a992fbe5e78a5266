import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { DeliveryRequests } from './delivery-requests';
import { ListenAttempts } from './listen-attempts';

@Module({
  imports: [LedgerModule],
  providers: [DeliveryRequests, ListenAttempts],
  exports: [DeliveryRequests, ListenAttempts],
})
export class WebhookDeliveriesModule {}
