import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** Who is told about the merchant's account: its owners. */
@Injectable()
export class MerchantOwnersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The e-mail addresses of the merchant's owners (members with the owner role), read when a notice
   * is sent: an owner who left meanwhile is not told, one made owner since is.
   */
  async ownersEmailsOf(merchantId: string): Promise<string[]> {
    const rows = await sqlRows<{ email: string }>(
      this.db,
      `SELECT email FROM merchant_members WHERE merchant_id = $1 AND role = 'owner' ORDER BY created_at, id`,
      [merchantId],
    );
    return rows.map((row) => row.email);
  }
}
