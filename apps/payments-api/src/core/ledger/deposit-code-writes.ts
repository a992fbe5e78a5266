import type { Sql } from '@payhook/persistence';

/** A payment's deposit code: what a bank transfer names to be matched to the payment (deposits/). */
export class DepositCodeWrites {
  constructor(private readonly sql: Sql) {}

  /**
   * Gives the payment `code` unless it has one already, and returns the code it holds (null: no such
   * payment). A code another payment holds fails with the unique index's violation; the caller draws
   * another in a new transaction.
   */
  async give(paymentId: string, code: string): Promise<string | null> {
    const [given] = await this.sql<{ deposit_code: string }>(
      `UPDATE payments SET deposit_code = $2 WHERE id = $1 AND deposit_code IS NULL RETURNING deposit_code`,
      [paymentId, code],
    );
    if (given) return given.deposit_code;
    const [existing] = await this.sql<{ deposit_code: string | null }>(
      'SELECT deposit_code FROM payments WHERE id = $1',
      [paymentId],
    );
    return existing?.deposit_code ?? null;
  }
}
