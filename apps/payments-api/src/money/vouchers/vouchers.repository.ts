import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@payhook/contracts';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { SealedSecretError, sealedPrefix } from '@payhook/config';
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

/** One pass of re-keying (rekeyUnderCurrentKey). */
export interface RekeyBatch {
  /** Rows read: fewer than the limit means the pass is over. */
  examined: number;
  moved: number;
  /** Ids of rows whose sealed digest does not open (changed, or copied from another row). */
  unreadable: string[];
  /**
   * Rows whose PIN already has a row under the current key (loaded again after a rotation before PINs
   * were re-keyed), with the digest to merge them by (mergeUnderBothKeys) once this batch has committed.
   * Held in memory only, never logged.
   */
  conflicting: { id: string; livemode: boolean; digest: string }[];
  last: string | null;
}

/** Wrong PINs per payment and per client within this window throttle further tries. */
export const PIN_FAILURE_WINDOW_MINUTES = 15;

@Injectable()
export class VouchersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly pinHashes: PinHashes,
  ) {}

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
      .map((voucher) => {
        const id = newId('voucher');
        const digest = pinDigest(voucher.pin);
        return { ...voucher, id, digest, ...this.pinHashes.storedUnderCurrentKey(id, digest) };
      })
      .sort((a, b) => (a.digest < b.digest ? -1 : 1));
    const rows = await inTransaction(this.db, async (sql) => {
      await rekeyPinRows(
        sql,
        this.pinHashes,
        livemode,
        hashed.map((voucher) => voucher.digest),
      );
      return sql<VoucherRow>(
        `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_digest_sealed, pin_last4, face_value, status)
         SELECT id, $1, 'registry', kind, pin_hash, pin_digest_sealed, pin_last4, face_value, 'available'
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
                AS v(id, kind, pin_hash, pin_digest_sealed, pin_last4, face_value)
         ON CONFLICT (livemode, pin_hash) DO NOTHING
         RETURNING id, livemode, kind, face_value, pin_last4, status, payment_id`,
        [
          livemode,
          hashed.map((voucher) => voucher.id),
          hashed.map((voucher) => voucher.kind),
          hashed.map((voucher) => voucher.pinHash),
          hashed.map((voucher) => voucher.pinDigestSealed),
          hashed.map((voucher) => voucher.pin.slice(-4)),
          hashed.map((voucher) => voucher.faceValue),
        ],
      );
    });
    return { loaded: rows.map(toView), skipped: vouchers.length - rows.length };
  }

  get keyIds(): { current: string; previous: string | null } {
    return this.pinHashes.keyIds;
  }

  /**
   * Moves to SECRETS_KEY up to `limit` rows still under SECRETS_KEY_PREVIOUS, the first ones in id order
   * after `after`, in one transaction: each row's sealed digest gives its hash under the current key.
   * Rows are locked with SKIP LOCKED, so this never waits for a load or a redemption (they lock PINs in
   * digest order and may hold a row; the next pass takes it, or they move it themselves) and several API
   * instances share the work; the new hash is written only where no row of the PIN has it already
   * (the others are returned as conflicting, for mergeUnderBothKeys).
   */
  async rekeyUnderCurrentKey(after: string | null, limit: number): Promise<RekeyBatch> {
    const previous = this.pinHashes.keyIds.previous;
    if (!previous) return { examined: 0, moved: 0, unreadable: [], conflicting: [], last: null };
    return inTransaction(this.db, async (sql) => {
      const rows = await sql<{ id: string; livemode: boolean; pin_digest_sealed: string }>(
        `SELECT id, livemode, pin_digest_sealed FROM vouchers
          WHERE starts_with(pin_digest_sealed, $1) AND ($2::text IS NULL OR id > $2)
          ORDER BY id LIMIT $3
            FOR UPDATE SKIP LOCKED`,
        [sealedPrefix(previous), after, limit],
      );
      const rekeyed: { id: string; livemode: boolean; digest: string; pinHash: string; pinDigestSealed: string }[] = [];
      const unreadable: string[] = [];
      for (const row of rows) {
        try {
          const digest = this.pinHashes.openDigest(row.id, row.pin_digest_sealed);
          rekeyed.push({
            id: row.id,
            livemode: row.livemode,
            digest,
            ...this.pinHashes.storedUnderCurrentKey(row.id, digest),
          });
        } catch (error) {
          if (!(error instanceof SealedSecretError)) throw error;
          unreadable.push(row.id);
        }
      }
      const moved =
        rekeyed.length === 0
          ? []
          : await sql<{ id: string }>(
              `UPDATE vouchers v SET pin_hash = r.pin_hash, pin_digest_sealed = r.pin_digest_sealed
                 FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, pin_hash, pin_digest_sealed)
                WHERE v.id = r.id
                  AND NOT EXISTS (SELECT 1 FROM vouchers o WHERE o.livemode = v.livemode AND o.pin_hash = r.pin_hash)
                RETURNING v.id`,
              [
                rekeyed.map((row) => row.id),
                rekeyed.map((row) => row.pinHash),
                rekeyed.map((row) => row.pinDigestSealed),
              ],
            );
      const movedIds = new Set(moved.map((row) => row.id));
      return {
        examined: rows.length,
        moved: moved.length,
        unreadable,
        conflicting: rekeyed
          .filter((row) => !movedIds.has(row.id))
          .map(({ id, livemode, digest }) => ({ id, livemode, digest })),
        last: rows.at(-1)?.id ?? null,
      };
    });
  }

  /**
   * Merges the rows of one PIN stored under both keys, in a transaction of its own, as a load or a
   * hold would (rekeyPinRows): an unused copy goes and the used row moves to the current key. One PIN
   * per transaction, locking its rows in id order as a redemption does, so the two cannot deadlock.
   * True when row `id` no longer carries the previous key (moved, or deleted as the unused copy); false
   * when both rows were used: the current key's row answers for the PIN and nothing is left to merge.
   */
  async mergeUnderBothKeys(conflict: { id: string; livemode: boolean; digest: string }): Promise<boolean> {
    const previous = this.pinHashes.keyIds.previous;
    if (!previous) return false;
    return inTransaction(this.db, async (sql) => {
      await rekeyPinRows(sql, this.pinHashes, conflict.livemode, [conflict.digest]);
      const [left] = await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM vouchers WHERE id = $1 AND starts_with(pin_digest_sealed, $2)`,
        [conflict.id, sealedPrefix(previous)],
      );
      return left.n === 0;
    });
  }

  /**
   * Rows still under SECRETS_KEY_PREVIOUS (0 when it is not set), and rows stored before digests were
   * sealed, whose key cannot be told: those move only when their PIN is seen again.
   */
  async countNotRekeyed(): Promise<{ underPrevious: number; withoutDigest: number }> {
    const previous = this.pinHashes.keyIds.previous;
    const [row] = await sqlRows<{ under_previous: number; without_digest: number }>(
      this.db,
      `SELECT count(*) FILTER (WHERE starts_with(pin_digest_sealed, $1))::int AS under_previous,
              count(*) FILTER (WHERE pin_digest_sealed IS NULL)::int AS without_digest
         FROM vouchers`,
      [previous ? sealedPrefix(previous) : null],
    );
    return { underPrevious: row.under_previous, withoutDigest: row.without_digest };
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
