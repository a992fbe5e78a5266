import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MerchantScope } from '@payhook/auth';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from '../../core/ledger';

/** An escrow payment as the buyer's page shows it: the payment and who sells. */
export interface BuyerEscrow {
  payment: PaymentRecord;
  merchantName: string;
}

/** The escrow reads, on the primary: a buyer's page or a refusal just after a move must see it. */
@Injectable()
export class EscrowRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The payment whose buyer's link has this digest (payments_escrow_token_idx), or null. */
  async findByLinkDigest(digest: Buffer): Promise<BuyerEscrow | null> {
    const rows = await sqlRows<PaymentRow & { merchant_name: string }>(
      this.db,
      `SELECT ${PAYMENT_COLUMNS}, (SELECT m.name FROM merchants m WHERE m.id = p.merchant_id) AS merchant_name
       FROM payments p WHERE escrow_token_digest = $1`,
      [digest],
      'escrow-by-link',
    );
    return rows[0] ? { payment: toPaymentRecord(rows[0]), merchantName: rows[0].merchant_name } : null;
  }

  /** A payment of the scope, to tell why a move did not happen. */
  async find(scope: MerchantScope, paymentId: string): Promise<PaymentRecord | null> {
    const rows = await sqlRows<PaymentRow>(
      this.db,
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [paymentId, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toPaymentRecord(rows[0]) : null;
  }

  async merchantName(merchantId: string): Promise<string> {
    const [row] = await sqlRows<{ name: string }>(this.db, `SELECT name FROM merchants WHERE id = $1`, [merchantId]);
    return row?.name ?? merchantId;
  }
}
