import { Expose } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { ToBoolean, ToInteger } from './env-transforms';

/** Variables both apps read (DESIGN.md §2). */
export class CommonEnv {
  @Expose()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/payhook';

  @Expose()
  @Matches(/^amqps?:\/\/\S+$/, { message: 'must be an amqp:// or amqps:// URL' })
  AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

  @Expose()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
    message: 'must be 1-64 letters, digits, dots, dashes or underscores',
  })
  AMQP_NAMESPACE = 'payhook';

  @Expose()
  @IsIn(['development', 'production', 'test'], { message: 'must be development, production or test' })
  NODE_ENV = 'development';

  /** One delivery attempt's limit; the integration test's own deliveries use it too. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of milliseconds from 100 to 60,000' })
  @Min(100, { message: 'must be a whole number of milliseconds from 100 to 60,000' })
  @Max(60_000, { message: 'must be a whole number of milliseconds from 100 to 60,000' })
  WEBHOOK_TIMEOUT_MS = 10_000;

  @Expose()
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS?: boolean;

  /** Unset means true outside production, where merchants test against local servers. */
  get allowPrivateWebhookUrls(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_URLS ?? this.NODE_ENV !== 'production';
  }
}
