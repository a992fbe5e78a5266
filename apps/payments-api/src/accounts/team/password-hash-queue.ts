import { Inject, Injectable } from '@nestjs/common';
import { clientKey } from '@payhook/auth';
import { PayhookError } from '@payhook/contracts';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';

/** What a client that finds the queue full is told to wait: a queue's worth of checks takes about this. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Every console password hash and check (scrypt, ~50 ms of CPU and 32 MiB each: logins, accepted
 * invites) runs here: at most PASSWORD_HASH_CONCURRENCY at once, with at most PASSWORD_HASH_QUEUE
 * waiting; one beyond that is refused at once with 429 instead of queueing behind hundreds of wrong
 * guesses (which once made a right password wait a minute). One client (clientKey: an IPv4 address, an IPv6 /64) has at most
 * one check running or waiting; its others are refused at once, so that filling the queue takes as
 * many clients as it has places, not one client's parallel guesses. Per API instance.
 */
@Injectable()
export class PasswordHashQueue {
  private readonly concurrency: number;
  private readonly queueLength: number;
  private running = 0;
  /** Checks of clients that have not failed lately: a lane of their own, served first. */
  private readonly waitingClean: (() => void)[] = [];
  private readonly waitingOthers: (() => void)[] = [];
  /** Clients with a check running or waiting. */
  private readonly clientsInFlight = new Set<string>();

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    this.concurrency = env.PASSWORD_HASH_CONCURRENCY;
    this.queueLength = env.PASSWORD_HASH_QUEUE;
  }

  /** Checks waiting for a slot, both lanes. */
  get waiting(): number {
    return this.waitingClean.length + this.waitingOthers.length;
  }

  /**
   * Runs `check` for the client at `address` when a slot is free; throws 429 rate_limited when that
   * client already has a check in flight, or every slot and its lane's places are taken. `clean`: the
   * client has no recent failure (its first sign-in, say); such a check waits in a lane of its own
   * (PASSWORD_HASH_QUEUE places too), served first, so a flood of wrong passwords from clients that
   * have failed cannot keep a right one out.
   */
  async run<T>(address: string, check: () => Promise<T>, { clean = false }: { clean?: boolean } = {}): Promise<T> {
    const client = clientKey(address);
    if (this.clientsInFlight.has(client)) throw tooMany();
    if (this.running < this.concurrency) {
      this.running += 1;
    } else if ((clean ? this.waitingClean : this.waitingOthers).length < this.queueLength) {
      this.clientsInFlight.add(client);
      // The slot is handed over by the check that finishes, so `running` stays as it is.
      await new Promise<void>((resolve) => (clean ? this.waitingClean : this.waitingOthers).push(resolve));
    } else {
      throw tooMany();
    }
    this.clientsInFlight.add(client);
    try {
      return await check();
    } finally {
      this.clientsInFlight.delete(client);
      const next = this.waitingClean.shift() ?? this.waitingOthers.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

function tooMany(): PayhookError {
  return new PayhookError(
    'rate_limited',
    `Too many sign-ins are being checked right now; try again in ${RETRY_AFTER_SECONDS} s.`,
    undefined,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}
