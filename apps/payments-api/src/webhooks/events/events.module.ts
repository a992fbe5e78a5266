import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { MerchantsModule } from '../../accounts/merchants';
import { WebhookDeliveriesModule } from '../deliveries';

@Module({
  imports: [WebhookDeliveriesModule, MerchantsModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService],
  exports: [EventsRepository, EventsService],
})
export class EventsModule {}
