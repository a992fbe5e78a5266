import { Module } from '@nestjs/common';
import { HolidaysAdminController } from './holidays.admin.controller';
import { HolidaysRepository } from './holidays.repository';
import { AuthThrottleModule } from '../../accounts/auth-throttle';

@Module({
  imports: [AuthThrottleModule],
  controllers: [HolidaysAdminController],
  providers: [HolidaysRepository],
})
export class HolidaysModule {}
