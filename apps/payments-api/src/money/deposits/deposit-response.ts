import type { DataEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import type { DepositView } from './deposit.view';
import type { RecordedDeposit } from './deposits.service';

/** The replay answer in the OpenAPI document. */
export const DEPOSIT_REPLAY = {
  status: 200,
  description: 'A bank transaction id already recorded: the same deposit again, with Idempotent-Replayed: true',
};

/** 201 for a new deposit; 200 with `Idempotent-Replayed: true` for a bank transaction id already recorded. */
export function respond(response: Response, recorded: RecordedDeposit): DataEnvelope<DepositView> {
  if (recorded.replayed) response.status(200).setHeader('Idempotent-Replayed', 'true');
  return { data: recorded.deposit };
}
