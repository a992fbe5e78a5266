import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { PaymentsModule } from '../payments';
import { ReviewCasesRepository } from './review-cases.repository';
import { ReviewsAdminController } from './reviews.admin.controller';
import { ReviewsService } from './reviews.service';
import { AuthThrottleModule } from '../../accounts/auth-throttle';

/** The review queue: money that did not match on its own waits here for a person. */
@Module({
  imports: [LedgerModule, PaymentsModule, AuthThrottleModule],
  controllers: [ReviewsAdminController],
  providers: [ReviewCasesRepository, ReviewsService],
})
export class ReviewsModule {}
