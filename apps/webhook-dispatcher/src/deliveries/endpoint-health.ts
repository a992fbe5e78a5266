import type { EndpointKey } from './deliveries.repository';

/** One automatic attempt's bearing on its endpoint's health, in the order the attempts finished. */
export interface HealthObservation {
  endpoint: EndpointKey;
  failed: boolean;
  startedAt: Date;
  error: string | null;
}

/**
 * What a batch of attempts does to one endpoint's health, for a statement that applies it on top
 * of the stored row: after a success the count starts again, so only the failures after the last
 * success add up, and they have failed since the first of them.
 */
export interface HealthChange {
  endpoint: EndpointKey;
  /** Failures after the last success of the batch (all of them when none succeeded). */
  tailFailures: number;
  anySuccess: boolean;
  /** When the first of the tail failures started; null when there are none. */
  tailFailingSince: Date | null;
  /** The error of the batch's last failure; null keeps the stored one. */
  lastError: string | null;
}

export function healthChanges(observations: HealthObservation[]): HealthChange[] {
  const byEndpoint = new Map<string, HealthChange>();
  for (const { endpoint, failed, startedAt, error } of observations) {
    const key = endpoint.id;
    const change =
      byEndpoint.get(key) ??
      byEndpoint
        .set(key, { endpoint, tailFailures: 0, anySuccess: false, tailFailingSince: null, lastError: null })
        .get(key)!;
    if (failed) {
      change.tailFailures++;
      change.tailFailingSince ??= startedAt;
      change.lastError = error;
    } else {
      change.anySuccess = true;
      change.tailFailures = 0;
      change.tailFailingSince = null;
    }
  }
  return [...byEndpoint.values()];
}
