/**
 * Token bucket per key: `perSecond` tokens refill each second, up to a burst of twice that.
 * In memory per API instance; several instances each allow the rate, which is acceptable for a
 * fairness limit (it is not a billing limit).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly capacity: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {
    this.capacity = perSecond * 2;
  }

  /** 0 when the request may go ahead; otherwise the seconds to wait before trying again. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updatedAt: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= this.maxKeys) this.buckets.clear();
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
