import { Logger } from '@nestjs/common';

/** Where the one token bucket of each key lives, shared by every API instance (ADR 0017). */
export abstract class RateLimitStore {
  /**
   * Refills the key's bucket (`perSecond` a second, up to twice that) and takes up to `wanted` whole
   * tokens from it in one atomic step. Returns how many it took and what is left (a fraction when
   * none could be taken: the caller tells the client when the next whole token is due).
   */
  abstract take(keyId: string, wanted: number, perSecond: number): Promise<{ granted: number; left: number }>;
}

/** A lease is at most this share of a second's rate: what one instance can hold unused is small. */
const LEASE_SHARE = 1 / 20;
/** Leased tokens not used by then are dropped: a key that went quiet must not save up a lease. */
const LEASE_TTL_MS = 1_000;
/** While the store does not answer, a key's requests go through this long without asking it again. */
const FAIL_OPEN_MS = 1_000;

interface Lease {
  tokens: number;
  expiresAt: number;
  /** How many were taken: a lease used up doubles the next one, a lease that expired halves it. */
  size: number;
}

/**
 * RATE_LIMIT_PER_SECOND per key across all API instances together (ADR 0017): the
 * bucket is in the store, and an instance takes tokens from it a lease at a time, so a request costs
 * a round trip only when its instance's lease is used up. A key's requests never get more than its
 * bucket holds, however they are spread. What is leased and not used within a second is lost, so a
 * lease follows the key's traffic on the instance: from 1, doubled each time one is used up in
 * time, up to 1/20 of a second's rate, and halved each time one expires; an instance that sees a
 * key rarely takes one token at a time and wastes none. A key the store refused is refused here
 * without asking again until its next token is due.
 */
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly leases = new Map<string, Lease>();
  private readonly refusedUntil = new Map<string, number>();
  private readonly leasing = new Map<string, Promise<void>>();
  private readonly maxLease: number;

  constructor(
    private readonly perSecond: number,
    private readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {
    this.maxLease = Math.max(1, Math.ceil(perSecond * LEASE_SHARE));
  }

  /** 0 when the request may go ahead; otherwise the whole seconds to wait before trying again. */
  async take(keyId: string): Promise<number> {
    if (this.perSecond <= 0) return 0;
    for (;;) {
      const now = this.now();
      const lease = this.leases.get(keyId);
      if (lease && lease.expiresAt > now && lease.tokens >= 1) {
        lease.tokens -= 1;
        return 0;
      }
      const refusedUntil = this.refusedUntil.get(keyId) ?? 0;
      if (refusedUntil > now) return Math.max(1, Math.ceil((refusedUntil - now) / 1000));
      // One lease in flight per key: requests that arrive meanwhile share what it brings.
      let leasing = this.leasing.get(keyId);
      if (!leasing) {
        leasing = this.lease(keyId).finally(() => this.leasing.delete(keyId));
        this.leasing.set(keyId, leasing);
      }
      await leasing;
    }
  }

  private async lease(keyId: string): Promise<void> {
    if (this.leases.size >= this.maxKeys) this.leases.clear();
    if (this.refusedUntil.size >= this.maxKeys) this.refusedUntil.clear();
    const size = this.nextLeaseSize(this.leases.get(keyId));
    try {
      const { granted, left } = await this.store.take(keyId, size, this.perSecond);
      const now = this.now();
      if (granted > 0) {
        this.leases.set(keyId, { tokens: granted, expiresAt: now + LEASE_TTL_MS, size });
        this.refusedUntil.delete(keyId);
      } else {
        this.leases.delete(keyId);
        this.refusedUntil.set(keyId, now + ((1 - left) / this.perSecond) * 1000);
      }
    } catch (error) {
      // A fairness limit fails open: the request itself meets the outage (503) if there is one. For
      // a while, so that a store that hangs is not asked again, and waited for, request after request.
      this.logger.warn(`rate limit store unavailable, letting ${keyId} through: ${String(error)}`);
      this.leases.set(keyId, { tokens: Infinity, expiresAt: this.now() + FAIL_OPEN_MS, size });
    }
  }

  private nextLeaseSize(previous: Lease | undefined): number {
    if (!previous || previous.tokens === Infinity) return 1;
    const usedUp = previous.tokens < 1 && previous.expiresAt > this.now();
    return usedUp ? Math.min(this.maxLease, previous.size * 2) : Math.max(1, Math.floor(previous.size / 2));
  }
}
