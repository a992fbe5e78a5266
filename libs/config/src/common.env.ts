import { Expose } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';
import { parseDuration } from './duration';
import { SecretsKeyring } from './sealed-secret';
import {
  decodeSecretsKey,
  publiclyKnownSecretsKey,
  publiclyKnownSecretsKeyMessage,
  secretsKeyFrom,
} from './secrets-key';
import { ToBoolean, ToInteger } from './env-transforms';
import { IsPostgresUrl } from './env-validators';

/** Whether the URLs agree on vhost and user; an unparseable one is left to the format check. */
function sameVhostAndUser(urls: string[]): boolean {
  try {
    const seen = new Set(
      urls.map((url) => {
        const parsed = new URL(url.trim());
        return `${parsed.username}@${parsed.pathname.replace(/^\/$/, '')}`;
      }),
    );
    return seen.size === 1;
  } catch {
    return true;
  }
}

const inProduction = (env: object | undefined) => (env as { NODE_ENV?: string } | undefined)?.NODE_ENV === 'production';

const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Variables both apps read. */
export class CommonEnv {
  /** One host, or several in libpq's form: the apps use the one that takes writes and follow a failover. */
  @Expose()
  @IsPostgresUrl('DATABASE_URL')
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/payhook';

  /** One node, or several nodes of one cluster, comma separated: the apps move to another when one goes. */
  @Expose()
  @Matches(/^amqps?:\/\/[^\s,]+(\s*,\s*amqps?:\/\/[^\s,]+)*$/, {
    message: 'must be an amqp:// or amqps:// URL, or several of one cluster separated by commas',
  })
  @ValidateBy({
    name: 'isOneCluster',
    validator: {
      // Apps that connect to different nodes must still meet in one vhost, as one user.
      validate: (value: unknown) => typeof value === 'string' && sameVhostAndUser(value.split(',')),
      defaultMessage: () => 'must name the same vhost and user on every node',
    },
  })
  AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

  get amqpUrls(): string[] {
    return this.AMQP_URL.split(',').map((url) => url.trim());
  }

  @Expose()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
    message: 'must be 1-64 letters, digits, dots, dashes or underscores',
  })
  AMQP_NAMESPACE = 'payhook';

  /**
   * The type of every webhook queue: `classic` on one node, `quorum` (replicated) on a cluster
   * (docs/scaling.md). A queue cannot change type in place: a new type goes with a new namespace.
   */
  @Expose()
  @IsOptional()
  @IsIn(['classic', 'quorum'], { message: 'must be classic or quorum' })
  AMQP_QUEUE_TYPE?: 'classic' | 'quorum';

  /** Replicated in production unless said otherwise: one node's disk must not hold the only copy. */
  get queueType(): 'classic' | 'quorum' {
    return this.AMQP_QUEUE_TYPE ?? (this.NODE_ENV === 'production' ? 'quorum' : 'classic');
  }

  /**
   * What carries webhook delivery requests from the API to the dispatcher: RabbitMQ, or a queue
   * table on the same Postgres (local mode sets it; ADR 0009). Both apps must agree.
   */
  @Expose()
  @IsIn(['rabbitmq', 'postgres'], { message: 'must be rabbitmq or postgres' })
  WEBHOOK_QUEUE: 'rabbitmq' | 'postgres' = 'rabbitmq';

  @Expose()
  @IsIn(['development', 'production', 'test'], { message: 'must be development, production or test' })
  NODE_ENV = 'development';

  @Expose()
  @IsIn(LOG_LEVEL_NAMES, { message: `must be one of ${LOG_LEVEL_NAMES.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVEL_NAMES)[number] = 'info';

  /** JSON lines for a log pipeline; `pretty` for a person at a terminal. */
  @Expose()
  @IsOptional()
  @IsIn(['json', 'pretty'], { message: 'must be json or pretty' })
  LOG_FORMAT?: 'json' | 'pretty';

  /** JSON in production, readable lines elsewhere, unless LOG_FORMAT says otherwise. */
  get logFormat(): 'json' | 'pretty' {
    return this.LOG_FORMAT ?? (this.NODE_ENV === 'production' ? 'json' : 'pretty');
  }

  /** One delivery attempt's limit; the integration test's own deliveries use it too. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of milliseconds from 100 to 60,000' })
  @Min(100, { message: 'must be a whole number of milliseconds from 100 to 60,000' })
  @Max(60_000, { message: 'must be a whole number of milliseconds from 100 to 60,000' })
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** How long an endpoint may keep failing its automatic attempts before it is disabled. */
  @Expose()
  @ValidateBy({
    name: 'isDurationFromOneSecond',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (parseDuration(value) ?? 0) >= 1_000,
      defaultMessage: () => 'must be a duration from 1s, such as 36h or 5d',
    },
  })
  WEBHOOK_DISABLE_AFTER = '5d';

  get disableAfterMs(): number {
    return parseDuration(this.WEBHOOK_DISABLE_AFTER) ?? 0;
  }

  /**
   * How long an endpoint's automatic attempts must have failed before its owners get a notice and
   * the console shows a banner; same syntax as WEBHOOK_DISABLE_AFTER.
   */
  @Expose()
  @ValidateBy({
    name: 'isDurationFromOneSecond',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (parseDuration(value) ?? 0) >= 1_000,
      defaultMessage: () => 'must be a duration from 1s, such as 24h or 2d',
    },
  })
  WEBHOOK_NOTICE_AFTER = '24h';

  get noticeAfterMs(): number {
    return parseDuration(this.WEBHOOK_NOTICE_AFTER) ?? 0;
  }

  @Expose()
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS?: boolean;

  /**
   * Only when set to true, in any NODE_ENV: otherwise a merchant could point its
   * endpoint at internal services and read their answers in the attempt log. Local mode sets it.
   */
  get allowPrivateWebhookUrls(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_URLS ?? false;
  }

  /**
   * 32 random bytes in base64: keys the stored voucher PIN hashes and seals the webhook signing
   * secrets at rest. Required in production; elsewhere a fixed development key is
   * used, and the start says so.
   */
  @Expose()
  @ValidateBy({
    name: 'isSecretsKey',
    validator: {
      validate: (value: unknown, args) =>
        value === undefined
          ? !inProduction(args?.object)
          : typeof value === 'string' &&
            decodeSecretsKey(value) !== null &&
            !(inProduction(args?.object) && publiclyKnownSecretsKey(decodeSecretsKey(value)!)),
      defaultMessage: (args) => {
        const key = typeof args?.value === 'string' ? decodeSecretsKey(args.value) : null;
        const reason = key && publiclyKnownSecretsKey(key);
        return reason
          ? publiclyKnownSecretsKeyMessage(reason)
          : 'must be 32 random bytes in base64 (openssl rand -base64 32), and is required when NODE_ENV=production';
      },
    },
  })
  SECRETS_KEY?: string;

  /** The key before the last rotation, still read while rows move to SECRETS_KEY. */
  @Expose()
  @IsOptional()
  @ValidateBy({
    name: 'isPreviousSecretsKey',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && decodeSecretsKey(value) !== null,
      defaultMessage: () => 'must be 32 random bytes in base64, like SECRETS_KEY',
    },
  })
  SECRETS_KEY_PREVIOUS?: string;

  get secretsKey(): { key: Buffer; development: boolean } {
    return secretsKeyFrom(this);
  }

  get previousSecretsKey(): Buffer | null {
    return this.SECRETS_KEY_PREVIOUS ? decodeSecretsKey(this.SECRETS_KEY_PREVIOUS) : null;
  }

  /** Seals stored secrets under SECRETS_KEY; opens those under SECRETS_KEY_PREVIOUS too. */
  get secretsKeyring(): SecretsKeyring {
    return new SecretsKeyring(this.secretsKey.key, this.previousSecretsKey);
  }
}
