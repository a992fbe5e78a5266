import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliverWebhookService, isCircuitOpen } from './deliver-webhook.service';
import {
  DeliveriesRepository,
  endpointKeyOf,
  SIGNING_SECRET_UNREADABLE,
  type EndpointKey,
  type EndpointState,
} from './deliveries.repository';
import { EndpointLanesRepository, type LaneDelivery, type LeasedEndpoint } from './endpoint-lanes.repository';
import { EndpointSlots, type Slot } from './endpoint-slots';
import { SealedSecretError } from '@payhook/config';
import { detached, inSpan, causingRequestId, SpanKind, withLogFields } from '@payhook/observability';

const POLL_INTERVAL_MS = 250;
/** Lanes one instance works at once; each holds at most its endpoint's slots. */
const MAX_ACTIVE_LANES = 50;
/** How long one turn on a lane goes on taking work before the lane is handed back (fairness). */
const TURN_MS = 2_000;
/** Beyond one attempt's timeout: how long a lease outlives a crashed instance. */
const LEASE_MARGIN_MS = 15_000;

/**
 * Works the lanes: takes due parked events of endpoints in trouble and attempts them here, one at
 * a time while an endpoint's circuit is open, up to its free slots once it answers again. The
 * shared broker queue never sees this work (ADR 0007).
 */
@Injectable()
export class EndpointLanesWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EndpointLanesWorker.name);
  private readonly active = new Map<string, Promise<void>>();
  /** Endpoints whose work was parked here while their slots were all busy: woken for when one frees. */
  private readonly awaitingSlot = new Set<string>();
  private readonly leaseMs: number;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private pollAgain = false;
  private stopping = false;
  /** Ends the turns waiting for a slot (slotFreed) when the dispatcher stops. */
  private readonly stopped = new AbortController();

  constructor(
    private readonly lanes: EndpointLanesRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly deliver: DeliverWebhookService,
    private readonly slots: EndpointSlots,
    @Inject(WebhookDispatcherEnv) env: WebhookDispatcherEnv,
  ) {
    this.leaseMs = TURN_MS + env.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    clearInterval(this.timer);
    await this.polling;
    // Running attempts finish and are recorded; a turn takes no new work once stopping.
    await Promise.all(this.active.values());
  }

  /**
   * Work of `endpointKey` was just parked: its lane is looked for as soon as this instance can work it.
   * With a free slot (its circuit is open), now; with every slot busy, when one frees, not before: a
   * lease taken then would be handed back at once, and an endpoint that hangs would cost a lease and a
   * release for every park (docs/performance.md). A turn on the lane here claims it anyway.
   */
  parked(endpointKey: string): void {
    if (this.active.has(endpointKey) || this.awaitingSlot.has(endpointKey)) return;
    if (this.slots.free(endpointKey) > 0) return this.wake();
    this.awaitingSlot.add(endpointKey);
    this.slots.whenFree(endpointKey, () => {
      this.awaitingSlot.delete(endpointKey);
      this.wake();
    });
  }

  /** Looks for due lanes now (after a park, or when a slot frees up), not only on the next poll. */
  wake(): void {
    if (this.stopping) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    // A park wakes this from inside a message's handling: the lanes' work is not part of that
    // message's trace or log context (each lane attempt opens its own, from its parked headers).
    this.polling = detached(() => this.poll())
      .catch((error: unknown) => this.logger.warn(`leasing lanes failed, will retry: ${String(error)}`))
      .finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  private async poll(): Promise<void> {
    const room = MAX_ACTIVE_LANES - this.active.size;
    if (room <= 0) return;
    // A lane whose endpoint has no free slot here would be handed back at once: another instance may take it.
    for (const endpoint of await this.lanes.leaseDueEndpoints(room, this.leaseMs, this.slots.busy())) {
      const key = endpointKeyOf(endpoint.key);
      const turn = this.turn(endpoint)
        .catch((error: unknown) => this.logger.warn(`lane ${key} failed, will retry: ${String(error)}`))
        .finally(() => {
          this.active.delete(key);
          return this.lanes.release(endpoint.key).catch(() => undefined); // the lease runs out by itself
        });
      this.active.set(key, turn);
    }
  }

  /**
   * Attempts due events of one leased lane until it is empty or the turn is over: one at a time
   * while the endpoint's circuit is open, otherwise keeping its free slots busy, claiming more as
   * half of them come free (one statement serves several attempts). The slots are taken before the
   * work is claimed, and while the queue's messages hold them all the turn waits for the next one:
   * the lane's work is older than theirs.
   */
  private async turn(leased: LeasedEndpoint): Promise<void> {
    const key = endpointKeyOf(leased.key);
    const endsAt = Date.now() + TURN_MS;
    const running = new Set<Promise<void>>();
    let endpoint: LeasedEndpoint = leased;
    try {
      while (!this.stopping && Date.now() < endsAt) {
        if (endpoint.status === 'disabled') return await this.deliveries.failLane(endpoint.key);
        // An open circuit gets one probe at a time, until its outcome is recorded.
        const limit = isCircuitOpen(endpoint) ? 1 - running.size : this.slots.perEndpoint;
        const room = Math.min(limit, this.slots.free(key));
        if (running.size > 0 && room < Math.ceil(this.slots.perEndpoint / 2)) {
          await Promise.race(running);
          continue;
        }
        if (room <= 0) {
          // Handing the lane back here left a fast endpoint's parked work to a later poll, which
          // found its slots busy again as often as not (docs/performance.md).
          if (limit > 0 && running.size === 0 && (await this.slotFreed(key, endsAt))) continue;
          return;
        }
        const taken = this.takeSlots(key, room);
        const claim = await this.claimDue(leased.key, taken.length).catch((error: unknown) => {
          for (const slot of taken) slot.release();
          throw error;
        });
        // Whatever the lane had no work for goes back at once.
        for (const unused of taken.splice(claim.deliveries.length)) unused.release();
        if (!claim.endpoint || claim.deliveries.length === 0) return;
        endpoint = claim.endpoint;
        for (const [index, delivery] of claim.deliveries.entries()) {
          const attempt = this.attemptOne(key, claim.endpoint, delivery, taken[index]);
          running.add(attempt);
          void attempt.finally(() => running.delete(attempt));
        }
      }
    } finally {
      // The lease is handed back only once every attempt of this turn is recorded.
      await Promise.all(running);
    }
  }

  /** Up to `room` slots of `key`, taken now. */
  private takeSlots(key: string, room: number): Slot[] {
    const taken: Slot[] = [];
    while (taken.length < room) {
      const slot = this.slots.tryTake(key);
      if (!slot) break;
      taken.push(slot);
    }
    return taken;
  }

  /** True once a slot of `key` comes free that no queued message takes; false at `until` or on stopping. */
  private slotFreed(key: string, until: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.stopped.signal.aborted) return resolve(false);
      const gaveUp = () => {
        clearTimeout(timer);
        this.stopped.signal.removeEventListener('abort', gaveUp);
        resolve(false);
      };
      const timer = setTimeout(gaveUp, Math.max(0, until - Date.now()));
      this.stopped.signal.addEventListener('abort', gaveUp, { once: true });
      this.slots.whenFree(key, () => {
        clearTimeout(timer);
        this.stopped.signal.removeEventListener('abort', gaveUp);
        resolve(!this.stopping);
      });
    });
  }

  /** The lane's due work; an endpoint whose secret does not open fails it all, with the reason, instead. */
  private async claimDue(key: EndpointKey, room: number) {
    try {
      return await this.lanes.claimDue(key, room, this.leaseMs);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      this.logger.error(`lane ${endpointKeyOf(key)}: ${SIGNING_SECRET_UNREADABLE}`);
      await this.deliveries.failLane(key, SIGNING_SECRET_UNREADABLE);
      return { endpoint: null, deliveries: [] };
    }
  }

  /** Never rejects: whatever is not recorded stays claimed in the lane until its lease runs out. */
  private attemptOne(key: string, endpoint: EndpointState, delivery: LaneDelivery, slot?: Slot): Promise<void> {
    // Its lines carry the request that caused it, as on the broker path.
    return withLogFields({ requestId: causingRequestId(delivery.headers), eventId: delivery.target.eventId }, () =>
      inSpan(
        'webhook.deliver lane',
        {
          kind: SpanKind.CONSUMER,
          parent: delivery.headers,
          attributes: { 'payhook.event_id': delivery.target.eventId },
        },
        () => this.attemptInLane(key, endpoint, delivery, slot ?? this.slots.tryTake(key)),
      ),
    );
  }

  /** `slot` null: the claim brought more rows than the slots taken for it; the rest wait in the lane again. */
  private async attemptInLane(
    key: string,
    endpoint: EndpointState,
    { target, retryStep, headers }: LaneDelivery,
    slot: Slot | null,
  ): Promise<void> {
    try {
      if (!slot) return await this.deliveries.park(target.eventId, endpoint.key.id, retryStep, new Date(), headers);
      await this.deliver.attempt({ retryStep, manual: false }, { ...target, endpoint }, 'lane', slot);
    } catch (error) {
      this.logger.warn(`lane attempt of ${target.eventId} failed before it was recorded: ${String(error)}`);
    } finally {
      slot?.release();
    }
  }
}
