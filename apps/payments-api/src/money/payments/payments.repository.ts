import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PaymentStatus } from '@payhook/contracts';
import { DataSource } from 'typeorm';
import { ReadDatabase, sqlRows } from '@payhook/persistence';
import type { KeysetCursor } from '../../platform/http/keyset-cursor';
import type { MerchantScope } from '@payhook/auth';
import { PAYMENT_COLUMNS, toPaymentRecord as toRecord, type PaymentRecord, type PaymentRow } from '../../core/ledger';

export const ONE_ACTIVE_PER_ORDER = 'payments_one_active_per_order';

export interface PaymentFilter {
  statuses?: PaymentStatus[];
  orderId?: string;
  customerId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  after?: KeysetCursor;
  limit: number;
}

/**
 * Where each status a merchant filters by is stored. Reads never show a pending payment past its
 * expiresAt (the sweeper may not have run yet), so `expired` also covers overdue pending rows.
 */
const STORED_AS: Record<PaymentStatus, { status: PaymentStatus; expiry?: string }[]> = {
  pending: [{ status: 'pending', expiry: 'expires_at > now()' }],
  expired: [{ status: 'expired' }, { status: 'pending', expiry: 'expires_at <= now()' }],
  completed: [{ status: 'completed' }],
  failed: [{ status: 'failed' }],
  canceled: [{ status: 'canceled' }],
};

/** The stored statuses to read for a filter, each with its expiry condition (none: every row). */
function storedStatuses(statuses: PaymentStatus[]): Map<PaymentStatus, string | undefined> {
  const stored = new Map<PaymentStatus, string | undefined>();
  for (const { status, expiry } of statuses.flatMap((s) => STORED_AS[s])) {
    // pending and expired together ask for every pending row.
    stored.set(status, stored.has(status) && stored.get(status) !== expiry ? undefined : expiry);
  }
  return stored;
}

@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** The pending or completed payment that holds this order (the unique index allows one). */
  async findActiveForOrder(scope: MerchantScope, orderId: string): Promise<PaymentRecord | null> {
    const rows = await sqlRows<PaymentRow>(
      this.db,
      `SELECT ${PAYMENT_COLUMNS} FROM payments
       WHERE merchant_id = $1 AND livemode = $2 AND order_id = $3 AND status IN ('pending', 'completed')`,
      [scope.merchantId, scope.livemode, orderId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(scope: MerchantScope, id: string): Promise<PaymentRecord | null> {
    const rows = await sqlRows<PaymentRow>(
      this.db,
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * When a finished payment left `pending` (only transitions touch a payment after its creation);
   * null while it is still pending. The console's state history shows it.
   */
  async findFinishedAt(scope: MerchantScope, id: string): Promise<Date | null> {
    const rows = await sqlRows<{ updated_at: Date }>(
      this.db,
      `SELECT updated_at FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND status <> 'pending'`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0]?.updated_at ?? null;
  }

  /**
   * On the primary: it has every row a replica has, so a cursor from a page read on one replica is
   * never taken for a forged one when the next page is read on another that is further behind.
   */
  async existsAt(scope: MerchantScope, position: KeysetCursor): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `SELECT 1 FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND created_at = $4`,
      [position.id, scope.merchantId, scope.livemode, position.createdAt],
    );
    return rows.length === 1;
  }

  /**
   * Newest first, keyset-paged on (created_at, id); fetches one extra row to tell hasMore. A status
   * filter reads each stored status as its own range of payments_status_list_idx and merges the
   * newest of each, so a rare status costs what it returns, not the merchant's whole history.
   * On the read database: a payment may show here a replica's delay after its create answered.
   */
  async list(scope: MerchantScope, filter: PaymentFilter): Promise<PaymentRecord[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.orderId !== undefined) where.push(`order_id = ${bind(filter.orderId)}`);
    if (filter.customerId !== undefined) where.push(`customer_id = ${bind(filter.customerId)}`);
    if (filter.createdFrom) where.push(`created_at >= ${bind(filter.createdFrom)}`);
    if (filter.createdTo) where.push(`created_at < ${bind(filter.createdTo)}`);
    if (filter.after) where.push(`(created_at, id) < (${bind(filter.after.createdAt)}, ${bind(filter.after.id)})`);
    const page = `ORDER BY created_at DESC, id DESC LIMIT ${bind(filter.limit + 1)}`;
    const select = (conditions: string[]) =>
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE ${conditions.join(' AND ')} ${page}`;
    const branches = filter.statuses
      ? [...storedStatuses(filter.statuses)].map(([status, expiry]) =>
          select([...where, `status = ${bind(status)}`, ...(expiry ? [expiry] : [])]),
        )
      : [select(where)];
    const text =
      branches.length === 1
        ? branches[0]
        : `SELECT * FROM (${branches.map((branch) => `(${branch})`).join(' UNION ALL ')}) page ${page}`;
    const rows = await this.read.rows<PaymentRow>(text, params);
    return rows.map(toRecord);
  }

  /** For the payment screen: the suffix is the bearer secret, so no merchant scope applies. */
  async findByPaySuffix(
    suffix: string,
  ): Promise<(PaymentRecord & { merchantName: string; merchantTimeZone: string; depositCode: string | null }) | null> {
    const rows = await sqlRows<
      PaymentRow & { merchant_name: string; merchant_time_zone: string; deposit_code: string | null }
    >(
      this.db,
      `SELECT p.*, m.name AS merchant_name, m.time_zone AS merchant_time_zone
       FROM payments p JOIN merchants m ON m.id = p.merchant_id WHERE p.pay_suffix = $1`,
      [suffix],
    );
    const row = rows[0];
    return row
      ? {
          ...toRecord(row),
          merchantName: row.merchant_name,
          merchantTimeZone: row.merchant_time_zone,
          depositCode: row.deposit_code,
        }
      : null;
  }

  /** For the operator: a payment by id, whoever it belongs to. */
  async findAnyById(id: string): Promise<PaymentRecord | null> {
    const rows = await sqlRows<PaymentRow>(this.db, `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }
}
