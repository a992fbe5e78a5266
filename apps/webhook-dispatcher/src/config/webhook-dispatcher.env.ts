import { CommonEnv, IsDurationFromOneMinute, ToInteger, parseDuration, parseDurationList } from '@payhook/config';
import { Expose } from 'class-transformer';
import { IsInt, IsIP, Max, Min, ValidateBy } from 'class-validator';

/** webhook-dispatcher configuration, validated before Nest boots. */
export class WebhookDispatcherEnv extends CommonEnv {
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number from 0 (any free port) to 65535' })
  @Min(0, { message: 'must be a whole number from 0 (any free port) to 65535' })
  @Max(65535, { message: 'must be a whole number from 0 (any free port) to 65535' })
  DISPATCHER_PORT = 3001;

  /**
   * The address /health, /ready and /metrics listen on. They have no auth: loopback by default, so
   * only the machine itself sees them; a container sets 0.0.0.0 for its orchestrator and scraper.
   */
  @Expose()
  @IsIP(undefined, { message: 'must be an IP address, such as 127.0.0.1 or 0.0.0.0' })
  DISPATCHER_HOST = '127.0.0.1';

  @Expose()
  @ValidateBy({
    name: 'isDurationList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseDurationList(value) !== null,
      defaultMessage: () => 'must be a comma list of durations such as 5s,5m,30m,2h',
    },
  })
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

  /** Waits before attempts 2..N, in milliseconds. */
  get retryScheduleMs(): number[] {
    return parseDurationList(this.WEBHOOK_RETRY_SCHEDULE) ?? [];
  }

  /**
   * How long delivery attempts are kept (an event's history of tries, like Stripe's 30 days); older
   * ones are purged in small batches. Payments and events are never purged.
   */
  @Expose()
  @IsDurationFromOneMinute()
  WEBHOOK_ATTEMPT_RETENTION = '30d';

  get attemptRetentionMs(): number {
    return parseDuration(this.WEBHOOK_ATTEMPT_RETENTION) ?? 0;
  }
}
