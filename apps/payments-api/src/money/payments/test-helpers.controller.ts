import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, PaymentView } from '@payhook/contracts';
import { PaymentTransitionsService } from './payment-transitions.service';
import { IdParam } from '../../platform/http/id-param';
import { ApiTags } from '@nestjs/swagger';
import { dataOf } from '../../platform/openapi/schema-builders';
import { ApiRoute } from '../../platform/openapi/api-route.decorator';

/** Every helper answers the moved payment, or why it could not move it. */
const HELPER_ERRORS = ['resource_not_found', 'payment_state_conflict', 'test_mode_only'] as const;

/** Moves test payments as a real payer or the expiry would (test keys only). */
@ApiTags('test helpers')
@Controller('v1/test-helpers/payments/:id')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class TestHelpersController {
  constructor(private readonly transitions: PaymentTransitionsService) {}

  @Post('complete')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Complete a pending test payment',
    status: 200,
    response: dataOf('Payment'),
    errors: [...HELPER_ERRORS],
  })
  async complete(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'completed') };
  }

  @Post('fail')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Fail a pending test payment',
    status: 200,
    response: dataOf('Payment'),
    errors: [...HELPER_ERRORS],
  })
  async fail(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'failed') };
  }

  @Post('expire')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Expire a pending test payment',
    status: 200,
    response: dataOf('Payment'),
    errors: [...HELPER_ERRORS],
  })
  async expire(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'expired') };
  }
}
