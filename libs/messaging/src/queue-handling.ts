import type { LoggerService } from '@nestjs/common';
import { isObservable, lastValueFrom } from 'rxjs';

/**
 * What a webhook queue handler decides for the message it was given, whatever the transport; the
 * transport carries it out and only then acknowledges. A handler that throws gets `back-off`
 * (counted toward the dead-letter limit).
 */
export type QueueDecision =
  | { kind: 'ack' }
  /**
   * Deliver `content` again after `delayMs`. `scheduledDelayMs` is the step of the retry schedule
   * it came from (before jitter): RabbitMQ keeps one wait queue per step.
   */
  | { kind: 'retry'; content: unknown; delayMs: number; scheduledDelayMs: number }
  /** Poison: kept apart for a person to look at. */
  | { kind: 'dead-letter'; reason: string }
  /** Nothing was recorded: try again after a short wait; `counts` toward MAX_BACKOFFS. */
  | { kind: 'back-off'; reason: string; counts: boolean };

/** A message that keeps backing off before anything could be recorded is poison after this many tries. */
export const MAX_BACKOFFS = 10;

/** What the server of either transport needs to know from the dispatcher. */
export interface QueueServerOptions {
  /** Messages one instance handles at once; more instances share the queue as competing consumers. */
  prefetch: number;
  /** How long close() waits for running handlers before it lets go anyway. */
  drainTimeoutMs: number;
  /** Called for every message sent to the dead-letter place (a metric). */
  onDeadLetter?: (reason: string) => void;
}

/** What every transport's `@Ctx()` offers: the headers the message carries (its correlation). */
export interface QueueMessageContext {
  getHeaders(): Record<string, string>;
}

/**
 * Runs the handler registered for `pattern` and turns its outcome into a decision: what it returns
 * (or emits last, if an Observable), `ack` when it returns nothing, `back-off` when it throws or
 * returns something that is no decision.
 */
export async function decide(
  handler: ((data: unknown, context: unknown) => unknown) | null | undefined,
  pattern: string,
  payload: string,
  context: unknown,
): Promise<QueueDecision> {
  if (!handler) return { kind: 'dead-letter', reason: `no handler for ${pattern}` };
  try {
    const result: unknown = await handler(payload, context);
    const decision: unknown = isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result;
    if (decision === undefined || decision === null) return { kind: 'ack' };
    if (isQueueDecision(decision)) return decision;
    // A transport could not carry it out: the message would stay unsettled, or a retry go nowhere and be lost.
    return { kind: 'back-off', reason: `the handler returned no known decision: ${shown(decision)}`, counts: true };
  } catch (error) {
    return { kind: 'back-off', reason: describe(error), counts: true };
  }
}

const isDelay = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Whether `value` is a decision a transport can carry out, with every field it reads. */
function isQueueDecision(value: unknown): value is QueueDecision {
  if (typeof value !== 'object' || value === null) return false;
  const decision = value as Record<string, unknown>;
  switch (decision.kind) {
    case 'ack':
      return true;
    case 'retry':
      return isDelay(decision.delayMs) && isDelay(decision.scheduledDelayMs);
    case 'dead-letter':
      return typeof decision.reason === 'string';
    case 'back-off':
      return typeof decision.reason === 'string' && typeof decision.counts === 'boolean';
    default:
      return false;
  }
}

/**
 * A server's handler lookup, remembered per pattern: Nest's own tries the pattern as JSON first, which
 * throws for a plain routing key, on every message. Handlers are all registered before listen().
 */
export function rememberedHandlers<Handler>(
  lookup: (pattern: string) => Handler | null,
): (pattern: string) => Handler | null {
  const found = new Map<string, Handler>();
  return (pattern) => {
    const known = found.get(pattern);
    if (known) return known;
    // Only found handlers are kept: a pattern without one is rare and ends in the dead-letter place.
    const handler = lookup(pattern);
    if (handler) found.set(pattern, handler);
    return handler;
  };
}

/** The handlers a server is running, so close() can let them finish before it lets go. */
export class RunningHandlers {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: LoggerService) {}

  get size(): number {
    return this.running.size;
  }

  track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  drain(timeoutMs: number): Promise<void> {
    return this.within(timeoutMs, 'finish the running handlers', () => Promise.all(this.running));
  }

  /**
   * Every shutdown step is bounded: whatever is unacknowledged when the transport lets go comes
   * back to a consumer later, so a stuck step may delay the exit but never loses a delivery.
   */
  async within(ms: number, step: string, work: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([work().then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.logger.warn(`shutdown: gave up waiting to ${step} after ${ms} ms`);
  }
}

/** A value for a log line: its JSON (cut short) where it has one. */
function shown(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
