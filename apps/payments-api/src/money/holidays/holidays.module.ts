import { Module } from '@nestjs/common';
import { HolidaysAdminController } from './holidays.admin.controller';
import { HolidaysRepository } from './holidays.repository';

@Module({
  controllers: [HolidaysAdminController],
  providers: [HolidaysRepository],
})
export class HolidaysModule {}
