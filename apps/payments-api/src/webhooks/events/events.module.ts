import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { MerchantsModule } from '../../accounts/merchants';

@Module({
  imports: [LedgerModule, MerchantsModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService],
  exports: [EventsRepository, EventsService],
})
export class EventsModule {}
