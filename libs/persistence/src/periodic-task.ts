import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

/**
 * Runs `tick()` every `intervalMs` from boot to shutdown, never two ticks at once.
 * A failed tick is logged and retried at the next interval; it never crashes the process.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  protected abstract readonly intervalMs: number;
  protected readonly logger = new Logger(this.constructor.name);

  protected abstract tick(): Promise<void>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One tick now, or the one already running; resolves when it is over, never rejects. */
  runOnce(): Promise<void> {
    this.running ??= this.tick()
      .catch((error: unknown) => this.logger.error(`tick failed: ${String(error)}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }
}

/**
 * Runs `batch(size)` until it handles fewer than `size` rows: background work in short statements
 * that never hold locks for long, however much has piled up. Returns how many rows it handled.
 */
export async function inBatches(size: number, batch: (size: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await batch(size);
    total += handled;
    if (handled < size) return total;
  }
}
