import { Module } from '@nestjs/common';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';
import { AuditModule } from '../../core/audit';
import { LedgerModule } from '../../core/ledger';
import { MailModule } from '../../platform/mail/mail.module';
import { EscrowAutoConfirmTask } from './escrow-auto-confirm.task';
import { EscrowController, EscrowTestHelpersController } from './escrow.controller';
import { EscrowRepository } from './escrow.repository';
import { EscrowService } from './escrow.service';

/**
 * Escrow (구매안전서비스): the merchant's shipment, the test helpers, the auto-confirm task, and for
 * the buyer's page and the console, EscrowService.
 */
@Module({
  // The API key guard's authenticator and throttle; the buyer's e-mail; the shipment's audit entry.
  imports: [LedgerModule, MerchantsModule, AuthThrottleModule, AuditModule, MailModule],
  controllers: [EscrowController, EscrowTestHelpersController],
  providers: [EscrowService, EscrowRepository, EscrowAutoConfirmTask],
  exports: [EscrowService],
})
export class EscrowModule {}
