import { Module } from '@nestjs/common';
import { MailModule } from '../../platform/mail/mail.module';
import { MerchantOwnersRepository } from './merchant-owners.repository';
import { WebhookNoticesRepository } from './webhook-notices.repository';
import { WebhookNoticesSender } from './webhook-notices.sender';

/** E-mails the owners when an endpoint fails, is disabled or recovers; the console's banner reads it too. */
@Module({
  imports: [MailModule],
  providers: [WebhookNoticesRepository, MerchantOwnersRepository, WebhookNoticesSender],
  exports: [WebhookNoticesRepository],
})
export class WebhookNoticesModule {}
