import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { PreviousSecretsPurger } from './previous-secrets.purger';
import { SigningSecretsRekeyer } from './signing-secrets.rekeyer';
import { WebhookEndpointResourcesController } from './webhook-endpoint-resources.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { AuditModule } from '../../core/audit';
import { MerchantsModule } from '../../accounts/merchants';

@Module({
  imports: [LedgerModule, AuditModule, MerchantsModule],
  controllers: [WebhookEndpointsController, WebhookEndpointResourcesController],
  providers: [WebhookEndpointsRepository, WebhookEndpointsService, SigningSecretsRekeyer, PreviousSecretsPurger],
  exports: [WebhookEndpointsRepository, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
