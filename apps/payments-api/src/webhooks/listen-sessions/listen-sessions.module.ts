import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { ListenSessionsController } from './listen-sessions.controller';
import { ListenSessionsRepository } from './listen-sessions.repository';
import { ListenSessionsService } from './listen-sessions.service';
import { ListenStreams } from './listen-streams';
import { MerchantsModule } from '../../accounts/merchants';
import { WebhookDeliveriesModule } from '../deliveries';

@Module({
  imports: [LedgerModule, WebhookDeliveriesModule, MerchantsModule],
  controllers: [ListenSessionsController],
  providers: [ListenSessionsRepository, ListenSessionsService, ListenStreams],
})
export class ListenSessionsModule {}
