import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/**
 * A payment's deposit code: what a bank transfer names to be matched to the payment. Giving one moves
 * no money and no state, so it is written here, not in the ledger: the payment screen gives it on the
 * first view (a GET), and a code is only ever set once.
 */
@Injectable()
export class DepositCodesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Gives the payment `code` unless it has one already, and returns the code it holds (null: no such
   * payment). A code another payment holds fails with the unique index's violation; the caller draws
   * another.
   */
  async give(paymentId: string, code: string): Promise<string | null> {
    const [given] = await sqlRows<{ deposit_code: string }>(
      this.db,
      `UPDATE payments SET deposit_code = $2 WHERE id = $1 AND deposit_code IS NULL RETURNING deposit_code`,
      [paymentId, code],
    );
    if (given) return given.deposit_code;
    const [existing] = await sqlRows<{ deposit_code: string | null }>(
      this.db,
      'SELECT deposit_code FROM payments WHERE id = $1',
      [paymentId],
    );
    return existing?.deposit_code ?? null;
  }
}
