import { Module } from '@nestjs/common';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';
import { IdempotencyModule } from '../../core/idempotency';
import { LedgerModule } from '../../core/ledger';
import { CashReceiptIdentities } from './cash-receipt-identities';
import { CashReceiptIdentitiesRekeyer } from './cash-receipt-identities.rekeyer';
import { CashReceiptOperationsService } from './cash-receipt-operations.service';
import { CashReceiptsAdminController } from './cash-receipts.admin.controller';
import { CashReceiptsController, PaymentCashReceiptsController } from './cash-receipts.controller';
import { CashReceiptsRepository } from './cash-receipts.repository';
import { CashReceiptsService } from './cash-receipts.service';

/**
 * Cash receipts (현금영수증): the merchant API, the operator's queue, the re-keying of buyers' numbers
 * in a SECRETS_KEY rotation, and for the payments feature, the payment screen and the console the
 * sealing of a buyer's number and a payment's receipts.
 */
@Module({
  // The API key guard's authenticator and the operator guard's throttle; the rekeyer's idempotency keys.
  imports: [LedgerModule, MerchantsModule, AuthThrottleModule, IdempotencyModule],
  controllers: [PaymentCashReceiptsController, CashReceiptsController, CashReceiptsAdminController],
  providers: [
    CashReceiptsService,
    CashReceiptOperationsService,
    CashReceiptsRepository,
    CashReceiptIdentities,
    CashReceiptIdentitiesRekeyer,
  ],
  exports: [CashReceiptsService, CashReceiptIdentities],
})
export class CashReceiptsModule {}
