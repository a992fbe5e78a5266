import { Module } from '@nestjs/common';
import { SettlementsController } from './settlements.controller';
import { SettlementsRepository } from './settlements.repository';
import { SettlementsService } from './settlements.service';
import { MerchantsModule } from '../../accounts/merchants';

@Module({
  imports: [MerchantsModule],
  controllers: [SettlementsController],
  providers: [SettlementsRepository, SettlementsService],
  exports: [SettlementsService, SettlementsRepository],
})
export class SettlementsModule {}
