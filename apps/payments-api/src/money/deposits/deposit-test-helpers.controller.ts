import { Body, Controller, Post, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import { PayhookError, randomBase62, type DataEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import { IdParam } from '../../platform/http/id-param';
import { PaymentsRepository } from '../payments';
import { Ledger } from '../../core/ledger';
import { DEPOSIT_REPLAY, respond } from './deposit-response';
import type { DepositView } from './deposit.view';
import { DepositsService, testFeed } from './deposits.service';
import { TestDepositRequestDto, TestPaymentDepositRequestDto } from './dto/record-deposit.request.dto';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';

/**
 * Simulated bank deposits into the merchant's own test feed: matched exactly as live deposits are, so a merchant
 * sees completions and review cases before going live (test keys only).
 */
@ApiTags('test helpers')
@Controller('v1/test-helpers')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class DepositTestHelpersController {
  constructor(
    private readonly deposits: DepositsService,
    private readonly payments: PaymentsRepository,
    private readonly ledger: Ledger,
  ) {}

  @Post('deposits')
  @ApiRoute({
    summary: 'A simulated bank deposit into the test feed, matched as a live one would be',
    status: 201,
    response: dataOf('Deposit'),
    replay: DEPOSIT_REPLAY,
    errors: [...BODY_ERRORS, 'idempotency_key_reused', 'test_mode_only'],
  })
  async deposit(
    @CurrentAuth() auth: AuthContext,
    @Body() body: TestDepositRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DataEnvelope<DepositView>> {
    const recorded = await this.deposits.record(testFeed(auth.merchantId), {
      bankTransactionId: body.bankTransactionId ?? `test_${randomBase62(20)}`,
      amount: body.amount,
      depositCode: body.depositCode,
      depositorName: body.depositorName ?? 'TEST DEPOSITOR',
    });
    return respond(response, recorded);
  }

  /** A deposit carrying this payment's code, for the amount still due unless another is given. */
  @Post('payments/:id/deposit')
  @ApiRoute({
    summary: "A simulated deposit with the payment's own deposit code, for what is still due unless an amount is given",
    status: 201,
    response: dataOf('Deposit'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'test_mode_only'],
  })
  async depositForPayment(
    @CurrentAuth() auth: AuthContext,
    @IdParam('payment') id: string,
    @Body() body: TestPaymentDepositRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DataEnvelope<DepositView>> {
    const payment = await this.payments.findById(auth, id);
    if (!payment) throw new PayhookError('resource_not_found', `No such payment: ${id}.`, 'id');
    const depositCode = await this.deposits.depositCodeFor(id);
    const due = await this.ledger.amountDue(payment);
    const recorded = await this.deposits.record(testFeed(auth.merchantId), {
      bankTransactionId: `test_${randomBase62(20)}`,
      amount: body.amount ?? Math.max(due, 1),
      depositCode: depositCode ?? undefined,
      depositorName: 'TEST DEPOSITOR',
    });
    return respond(response, recorded);
  }
}
