import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@payhook/contracts';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { VoucherKind } from './voucher-issuer';
import { PinHashes } from './pin-hashes';
import { rekeyPinRows } from './pin-rekeying';
import { pinDigest } from './voucher-pin';

export interface NewVoucher {
  pin: string;
  kind: VoucherKind;
  faceValue: number;
}

export interface VoucherView {
  id: string;
  livemode: boolean;
  kind: VoucherKind;
  faceValue: number;
  pinLast4: string;
  status: 'available' | 'held' | 'redeemed';
  paymentId: string | null;
}

interface VoucherRow {
  id: string;
  livemode: boolean;
  kind: VoucherKind;
  face_value: string;
  pin_last4: string;
  status: VoucherView['status'];
  payment_id: string | null;
}

const toView = (row: VoucherRow): VoucherView => ({
  id: row.id,
  livemode: row.livemode,
  kind: row.kind,
  faceValue: Number(row.face_value),
  pinLast4: row.pin_last4,
  status: row.status,
  paymentId: row.payment_id,
});

/** Wrong PINs per payment and per client within this window throttle further tries. */
export const PIN_FAILURE_WINDOW_MINUTES = 15;

@Injectable()
export class VouchersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly pinHashes: PinHashes,
  ) {}

  /** Value of the vouchers held for (or redeemed by) a payment. */
  static async heldValue(sql: Sql, paymentId: string): Promise<number> {
    const [row] = await sql<{ total: string }>(
      `SELECT COALESCE(sum(face_value), 0) AS total FROM vouchers
        WHERE payment_id = $1 AND status IN ('held', 'redeemed')`,
      [paymentId],
    );
    return Number(row.total);
  }

  valueHeldFor(paymentId: string): Promise<number> {
    return VouchersRepository.heldValue((text, params) => sqlRows(this.db, text, params), paymentId);
  }

  /**
   * Loads vouchers into the registry; a PIN already there is skipped (and reported as such), under
   * whichever key it was stored: during a rotation its row moves to the current key in this same
   * transaction, so the insert below meets it on the unique index.
   */
  async load(livemode: boolean, vouchers: NewVoucher[]): Promise<{ loaded: VoucherView[]; skipped: number }> {
    if (vouchers.length === 0) return { loaded: [], skipped: 0 };
    // In digest order, as a redemption holds PINs, so overlapping loads and redemptions take the row
    // and unique index locks in the same order.
    const hashed = vouchers
      .map((voucher) => ({ ...voucher, digest: pinDigest(voucher.pin), pinHash: this.pinHashes.current(voucher.pin) }))
      .sort((a, b) => (a.digest < b.digest ? -1 : 1));
    const rows = await inTransaction(this.db, async (sql) => {
      await rekeyPinRows(
        sql,
        livemode,
        hashed.map((voucher) => this.pinHashes.candidates(voucher.pin)),
      );
      return sql<VoucherRow>(
        `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
         SELECT id, $1, 'registry', kind, pin_hash, pin_last4, face_value, 'available'
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
                AS v(id, kind, pin_hash, pin_last4, face_value)
         ON CONFLICT (livemode, pin_hash) DO NOTHING
         RETURNING id, livemode, kind, face_value, pin_last4, status, payment_id`,
        [
          livemode,
          hashed.map(() => newId('voucher')),
          hashed.map((voucher) => voucher.kind),
          hashed.map((voucher) => voucher.pinHash),
          hashed.map((voucher) => voucher.pin.slice(-4)),
          hashed.map((voucher) => voucher.faceValue),
        ],
      );
    });
    return { loaded: rows.map(toView), skipped: vouchers.length - rows.length };
  }

  /** Serialises the redemptions of one client address until the caller's transaction ends. */
  static async lockClient(sql: Sql, client: string): Promise<void> {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended('voucher-pin-client:' || $1, 0))`, [client]);
  }

  /** Wrong PINs within the window, for this payment and for this client. */
  static async recentFailures(
    sql: Sql,
    paymentId: string,
    client: string,
  ): Promise<{ payment: number; client: number }> {
    const [row] = await sql<{ payment: string; client: string }>(
      `SELECT count(*) FILTER (WHERE payment_id = $1) AS payment, count(*) FILTER (WHERE client = $2) AS client
         FROM voucher_pin_failures
        WHERE (payment_id = $1 OR client = $2) AND failed_at > now() - make_interval(mins => $3)`,
      [paymentId, client, PIN_FAILURE_WINDOW_MINUTES],
    );
    return { payment: Number(row.payment), client: Number(row.client) };
  }

  static async recordFailures(sql: Sql, paymentId: string, client: string, count: number): Promise<void> {
    if (count === 0) return;
    await sql(`INSERT INTO voucher_pin_failures (payment_id, client) SELECT $1, $2 FROM generate_series(1, $3)`, [
      paymentId,
      client,
      count,
    ]);
  }

  /** Failures older than the window count for nothing. */
  async purgeFailures(): Promise<void> {
    await sqlRows(this.db, `DELETE FROM voucher_pin_failures WHERE failed_at <= now() - make_interval(mins => $1)`, [
      PIN_FAILURE_WINDOW_MINUTES,
    ]);
  }
}
