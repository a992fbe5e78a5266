import type { Sql } from '@payhook/persistence';
import type { PinHashes } from './pin-hashes';

interface StoredPin {
  id: string;
  pin_hash: string;
  status: 'available' | 'held' | 'redeemed';
}

/**
 * Brings the stored rows of these PINs under SECRETS_KEY, inside the caller's transaction, so that a
 * PIN is one voucher whichever key is current (issue 25): every statement after it looks a PIN up by
 * its current hash alone. `digests` holds each PIN's SHA-256 (pinDigest) in the order the caller holds
 * PINs in: the rows are locked PIN by PIN in that order, so a load and a redemption that share PINs
 * cannot deadlock. Without a previous key there is nothing to move. A row moved gets its digest sealed
 * under the current key too, so a later rotation can move it without its PIN.
 *
 * A PIN stored under both keys was loaded again after a rotation before this fix. The duplicate
 * that was never used goes, and the row that was used (held or redeemed) answers for the PIN; when
 * both were used there is nothing left to merge, and the current key's row answers.
 */
export async function rekeyPinRows(
  sql: Sql,
  pinHashes: PinHashes,
  livemode: boolean,
  digests: string[],
): Promise<void> {
  if (!pinHashes.keyIds.previous) return;
  const rotating = digests.map((digest) => ({ digest, candidates: pinHashes.candidatesOfDigest(digest) }));
  const hashes = rotating.flatMap(({ candidates }) => candidates);
  const rows = await sql<StoredPin>(
    `SELECT v.id, v.pin_hash, v.status
       FROM vouchers v JOIN unnest($2::text[], $3::int[]) AS pin(hash, rank) ON v.pin_hash = pin.hash
      WHERE v.livemode = $1
      ORDER BY pin.rank, v.id
        FOR UPDATE OF v`,
    [livemode, hashes, rotating.flatMap(({ candidates }, rank) => candidates.map(() => rank))],
  );
  const stored = new Map(rows.map((row) => [row.pin_hash, row]));
  const moves: { id: string; digest: string }[] = [];
  const duplicates: string[] = [];
  for (const {
    digest,
    candidates: [current, ...previous],
  } of rotating) {
    const underCurrent = stored.get(current);
    const underPrevious = previous.map((hash) => stored.get(hash)).find((row) => row !== undefined);
    if (!underPrevious) continue;
    if (!underCurrent) {
      moves.push({ id: underPrevious.id, digest });
    } else if (underPrevious.status === 'available') {
      duplicates.push(underPrevious.id);
    } else if (underCurrent.status === 'available') {
      duplicates.push(underCurrent.id);
      moves.push({ id: underPrevious.id, digest });
    }
  }
  // Duplicates go first: the row moving in takes the hash one of them carried.
  if (duplicates.length > 0) await sql(`DELETE FROM vouchers WHERE id = ANY($1::text[])`, [duplicates]);
  if (moves.length > 0) {
    const rekeyed = moves.map((move) => ({ id: move.id, ...pinHashes.storedUnderCurrentKey(move.id, move.digest) }));
    await sql(
      `UPDATE vouchers v SET pin_hash = moved.pin_hash, pin_digest_sealed = moved.pin_digest_sealed
         FROM unnest($1::text[], $2::text[], $3::text[]) AS moved(id, pin_hash, pin_digest_sealed)
        WHERE v.id = moved.id`,
      [rekeyed.map((row) => row.id), rekeyed.map((row) => row.pinHash), rekeyed.map((row) => row.pinDigestSealed)],
    );
  }
}

/**
 * Seals the PIN digest of a row stored before digests were sealed, under the current key, so a later
 * rotation can move the row without its PIN. The caller holds the row's lock.
 */
export async function sealPinDigest(sql: Sql, pinHashes: PinHashes, voucherId: string, digest: string): Promise<void> {
  await sql(`UPDATE vouchers SET pin_digest_sealed = $2 WHERE id = $1`, [
    voucherId,
    pinHashes.storedUnderCurrentKey(voucherId, digest).pinDigestSealed,
  ]);
}
