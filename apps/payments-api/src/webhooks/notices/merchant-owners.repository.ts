import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { Locale } from '../../platform/i18n/locale';

/** An owner told about the merchant's account, and the language the owner chose (null: none). */
export interface Owner {
  email: string;
  locale: Locale | null;
}

/** Who is told about the merchant's account: its owners. */
@Injectable()
export class MerchantOwnersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The merchant's owners (members with the owner role), read when a notice is sent: an owner who
   * left meanwhile is not told, one made owner since is, each in the language they chose by then.
   */
  ownersOf(merchantId: string): Promise<Owner[]> {
    return sqlRows<Owner>(
      this.db,
      `SELECT email, locale FROM merchant_members WHERE merchant_id = $1 AND role = 'owner' ORDER BY created_at, id`,
      [merchantId],
    );
  }
}
