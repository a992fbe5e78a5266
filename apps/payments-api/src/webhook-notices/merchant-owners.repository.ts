import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** Who is told about the merchant's account: its owners (DESIGN.md §9). */
@Injectable()
export class MerchantOwnersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The e-mail addresses of the merchant's owners, read when a notice is sent (so an owner who left
   * meanwhile is not told). Today a merchant has one console login, made at approval, and it is the
   * owner. When team members arrive (DESIGN.md §9 "Team"), this becomes the members whose role is
   * `owner`, e.g. `SELECT email FROM merchant_members WHERE merchant_id = $1 AND role = 'owner'`.
   */
  async ownersEmailsOf(merchantId: string): Promise<string[]> {
    const rows = await sqlRows<{ email: string }>(
      this.db,
      `SELECT console_email AS email FROM merchants WHERE id = $1 AND console_email IS NOT NULL`,
      [merchantId],
    );
    return rows.map((row) => row.email);
  }
}
