import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, PaymentView } from '@payhook/contracts';
import { ApiActor, type AuditActor } from '../../core/audit';
import { IdParam } from '../../platform/http/id-param';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { RejectEscrowRequestDto } from './dto/reject-escrow.request.dto';
import { ShipmentRequestDto } from './dto/shipment.request.dto';
import { EscrowService } from './escrow.service';

/** POST /v1/payments/{id}/escrow/shipment: the merchant's side of an escrow. */
@ApiTags('escrow')
@Controller('v1/payments/:id/escrow')
@UseGuards(ApiKeyGuard)
export class EscrowController {
  constructor(private readonly escrow: EscrowService) {}

  @Post('shipment')
  @HttpCode(200)
  @ApiRoute({
    summary:
      'Register the shipment of a completed escrow payment (again while shipped: a correction of the carrier and tracking number); the first e-mails the buyer a link to confirm or reject',
    status: 200,
    response: dataOf('Payment'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'payment_state_conflict', 'escrow_state_conflict'],
  })
  async ship(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('payment') paymentId: string,
    @Body() body: ShipmentRequestDto,
  ): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.escrow.ship(auth, paymentId, body, by) };
  }
}

/** The buyer's moves on a test escrow, as the buyer's page makes them (test keys only). */
@ApiTags('test helpers')
@Controller('v1/test-helpers/payments/:id/escrow')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class EscrowTestHelpersController {
  constructor(private readonly escrow: EscrowService) {}

  @Post('confirm')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Confirm a shipped test escrow as its buyer would (escrow.confirmed); the payout is scheduled',
    status: 200,
    response: dataOf('Payment'),
    errors: ['resource_not_found', 'escrow_state_conflict', 'test_mode_only'],
  })
  async confirm(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.escrow.confirmForTest(auth, id) };
  }

  @Post('reject')
  @HttpCode(200)
  @ApiRoute({
    summary:
      'Reject a shipped test escrow as its buyer would (escrow.rejected); the payout stays held and a review case opens',
    status: 200,
    response: dataOf('Payment'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'escrow_state_conflict', 'test_mode_only'],
  })
  async reject(
    @CurrentAuth() auth: AuthContext,
    @IdParam('payment') id: string,
    @Body() body: RejectEscrowRequestDto,
  ): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.escrow.rejectForTest(auth, id, body.reason) };
  }
}
