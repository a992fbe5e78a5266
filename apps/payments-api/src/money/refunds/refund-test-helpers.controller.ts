import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, RefundView } from '@payhook/contracts';
import { ApiActor, type AuditActor } from '../../core/audit';
import { IdParam } from '../../platform/http/id-param';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { FailedTestRefundRequestDto } from './dto/failed-test-refund.request.dto';
import { RefundsService } from './refunds.service';

/**
 * A test refund succeeds at once, so refund.failed never happens in test mode by itself: this helper
 * makes a refund that the bank refused, as a live one the operator reports failed (test keys only).
 */
@ApiTags('test helpers')
@Controller('v1/test-helpers/payments/:id')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class RefundTestHelpersController {
  constructor(private readonly refunds: RefundsService) {}

  @Post('failed-refund')
  @HttpCode(201)
  @ApiRoute({
    summary: 'Refund a completed test payment and have the refund fail (refund.failed); the amount stays refundable',
    status: 201,
    response: dataOf('Refund'),
    errors: [
      ...BODY_ERRORS,
      'resource_not_found',
      'payment_state_conflict',
      'refund_amount_exceeded',
      'test_mode_only',
    ],
  })
  @ApiBody({ type: FailedTestRefundRequestDto, required: false })
  async failedRefund(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('payment') paymentId: string,
    @Body() body: FailedTestRefundRequestDto,
  ): Promise<DataEnvelope<RefundView>> {
    return { data: await this.refunds.failedTestRefund(auth, paymentId, body, by) };
  }
}
