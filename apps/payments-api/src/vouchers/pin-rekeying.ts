import type { Sql } from '@payhook/persistence';

interface StoredPin {
  id: string;
  pin_hash: string;
  status: 'available' | 'held' | 'redeemed';
}

/**
 * Brings the stored rows of these PINs under SECRETS_KEY, inside the caller's transaction, so that a
 * PIN is one voucher whichever key is current (issue 25): every statement after it looks a PIN up by
 * its current hash alone. `pins` holds each PIN's hashes, current first (PinHashes.candidates), in
 * the order the caller holds PINs in: the rows are locked PIN by PIN in that order, so a load and a
 * redemption that share PINs cannot deadlock. Without a previous key there is nothing to move.
 *
 * A PIN stored under both keys was loaded again after a rotation before this fix. The duplicate
 * that was never used goes, and the row that was used (held or redeemed) answers for the PIN; when
 * both were used there is nothing left to merge, and the current key's row answers.
 */
export async function rekeyPinRows(sql: Sql, livemode: boolean, pins: string[][]): Promise<void> {
  const rotating = pins.filter((hashes) => hashes.length > 1);
  if (rotating.length === 0) return;
  const hashes = rotating.flat();
  const rows = await sql<StoredPin>(
    `SELECT v.id, v.pin_hash, v.status
       FROM vouchers v JOIN unnest($2::text[], $3::int[]) AS pin(hash, rank) ON v.pin_hash = pin.hash
      WHERE v.livemode = $1
      ORDER BY pin.rank, v.id
        FOR UPDATE OF v`,
    [livemode, hashes, rotating.flatMap((candidates, rank) => candidates.map(() => rank))],
  );
  const stored = new Map(rows.map((row) => [row.pin_hash, row]));
  const moves: { id: string; pinHash: string }[] = [];
  const duplicates: string[] = [];
  for (const [current, ...previous] of rotating) {
    const underCurrent = stored.get(current);
    const underPrevious = previous.map((hash) => stored.get(hash)).find((row) => row !== undefined);
    if (!underPrevious) continue;
    if (!underCurrent) {
      moves.push({ id: underPrevious.id, pinHash: current });
    } else if (underPrevious.status === 'available') {
      duplicates.push(underPrevious.id);
    } else if (underCurrent.status === 'available') {
      duplicates.push(underCurrent.id);
      moves.push({ id: underPrevious.id, pinHash: current });
    }
  }
  // Duplicates go first: the row moving in takes the hash one of them carried.
  if (duplicates.length > 0) await sql(`DELETE FROM vouchers WHERE id = ANY($1::text[])`, [duplicates]);
  if (moves.length > 0) {
    await sql(
      `UPDATE vouchers v SET pin_hash = moved.pin_hash
         FROM unnest($1::text[], $2::text[]) AS moved(id, pin_hash) WHERE v.id = moved.id`,
      [moves.map((move) => move.id), moves.map((move) => move.pinHash)],
    );
  }
}
