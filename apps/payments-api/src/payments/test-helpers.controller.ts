import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, PaymentView } from '@payhook/contracts';
import { PaymentTransitionsService } from './payment-transitions.service';
import { IdParam } from '../http/id-param';

/** Moves test payments as a real payer or the expiry would (test keys only). */
@Controller('v1/test-helpers/payments/:id')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class TestHelpersController {
  constructor(private readonly transitions: PaymentTransitionsService) {}

  @Post('complete')
  @HttpCode(200)
  async complete(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'completed') };
  }

  @Post('fail')
  @HttpCode(200)
  async fail(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'failed') };
  }

  @Post('expire')
  @HttpCode(200)
  async expire(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'expired') };
  }
}
