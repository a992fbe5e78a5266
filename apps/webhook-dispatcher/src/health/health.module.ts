import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { HealthController } from './health.controller';

@Module({ imports: [DeliveriesModule], controllers: [HealthController] })
export class HealthModule {}
