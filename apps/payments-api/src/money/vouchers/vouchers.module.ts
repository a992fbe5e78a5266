import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { PinHashes } from './pin-hashes';
import { RegistryVoucherIssuer } from './registry-voucher-issuer';
import { VOUCHER_ISSUER } from './voucher-issuer';
import { VoucherPinFailuresPurger } from './voucher-pin-failures.purger';
import { VoucherPinsRekeyer } from './voucher-pins.rekeyer';
import { VoucherRedemptionService } from './voucher-redemption.service';
import { VoucherTestHelpersController } from './voucher-test-helpers.controller';
import { VouchersAdminController } from './vouchers.admin.controller';
import { VouchersRepository } from './vouchers.repository';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';

/** Gift vouchers: the issuer adapter (the built-in registry first), redemption on the payment screen. */
@Module({
  imports: [LedgerModule, AuthThrottleModule, MerchantsModule],
  controllers: [VouchersAdminController, VoucherTestHelpersController],
  providers: [
    PinHashes,
    VouchersRepository,
    VoucherRedemptionService,
    VoucherPinFailuresPurger,
    VoucherPinsRekeyer,
    { provide: VOUCHER_ISSUER, useClass: RegistryVoucherIssuer },
  ],
  exports: [VoucherRedemptionService, VouchersRepository],
})
export class VouchersModule {}
