import { CommonEnv, IsDurationFromOneMinute, IsPostgresUrl, parseDuration, ToInteger } from '@payhook/config';
import { DEFAULT_ESCROW_AUTO_CONFIRM_DAYS, MAX_ESCROW_AUTO_CONFIRM_DAYS } from '@payhook/contracts';
import { Expose } from 'class-transformer';
import { IsInt, IsIP, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';
import { isIP, isIPv4 } from 'node:net';
import { connectionCap, softFileLimit, type ConnectionLimits } from '../http/connection-limits';
import { IsPrintableText } from '../http/validators';

const MIN_ADMIN_TOKEN_LENGTH = 32;

const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/** payments-api configuration, validated before Nest boots. */
export class PaymentsApiEnv extends CommonEnv {
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number from 0 (any free port) to 65535' })
  @Min(0, { message: 'must be a whole number from 0 (any free port) to 65535' })
  @Max(65535, { message: 'must be a whole number from 0 (any free port) to 65535' })
  PORT = 3000;

  /**
   * Local mode: the address the API listens on, 127.0.0.1 when unset (its README admin token is
   * known to all). The production-like apps listen on every interface.
   */
  @Expose()
  @IsOptional()
  @IsIP(undefined, { message: 'must be an IP address, such as 127.0.0.1 or 0.0.0.0' })
  HOST?: string;

  /**
   * A second Postgres for the read-only lists (a streaming replica of DATABASE_URL; docs/scaling.md).
   * Unset: every query uses DATABASE_URL and no second pool is opened.
   */
  @Expose()
  @IsOptional()
  @IsPostgresUrl('DATABASE_READ_URL')
  DATABASE_READ_URL?: string;

  @Expose()
  @Matches(HTTP_URL, { message: 'must be an absolute http(s) URL without query' })
  BASE_URL = 'http://localhost:3000';

  @Expose()
  @Matches(HTTP_URL, { message: 'must be an absolute http(s) URL without query' })
  PAY_URL = 'http://localhost:3000';

  @Expose()
  @IsOptional()
  @Matches(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces (it is sent as a Bearer token)' })
  @ValidateBy({
    name: 'isLongEnoughInProduction',
    validator: {
      // A short operator token falls to guessing; outside production a short one keeps examples readable.
      validate: (value: unknown, args) =>
        (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' ||
        (typeof value === 'string' && value.length >= MIN_ADMIN_TOKEN_LENGTH),
      defaultMessage: () => `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters when NODE_ENV=production`,
    },
  })
  ADMIN_TOKEN?: string;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of seconds from 60 to 604,800' })
  @Min(60, { message: 'must be a whole number of seconds from 60 to 604,800' })
  @Max(604_800, { message: 'must be a whole number of seconds from 60 to 604,800' })
  PAYMENT_TTL_SECONDS = 1800;

  /** Business days after a shipment until an escrow the buyer left open confirms by itself (0: the shipment's day). */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of business days from 0 to 30' })
  @Min(0, { message: 'must be a whole number of business days from 0 to 30' })
  @Max(MAX_ESCROW_AUTO_CONFIRM_DAYS, { message: 'must be a whole number of business days from 0 to 30' })
  ESCROW_AUTO_CONFIRM_DAYS = DEFAULT_ESCROW_AUTO_CONFIRM_DAYS;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of hours from 1 to 720' })
  @Min(1, { message: 'must be a whole number of hours from 1 to 720' })
  @Max(720, { message: 'must be a whole number of hours from 1 to 720' })
  IDEMPOTENCY_TTL_HOURS = 24;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of 0 or more (0 turns rate limiting off)' })
  @Min(0, { message: 'must be a whole number of 0 or more (0 turns rate limiting off)' })
  RATE_LIMIT_PER_SECOND = 100;

  /** A request's headers must have arrived within this (slowloris: a trickle does not extend it). */
  @Expose()
  @IsDurationWithin(1_000, 300_000, 'must be a duration from 1s to 5m, such as 10s')
  HTTP_HEADERS_TIMEOUT = '10s';

  /** A whole request, body included, must have arrived within this; not shorter than HTTP_HEADERS_TIMEOUT. */
  @Expose()
  @IsDurationWithin(1_000, 600_000, 'must be a duration from 1s to 10m, such as 30s')
  @ValidateBy({
    name: 'isNotShorterThanHeadersTimeout',
    validator: {
      validate: (value: unknown, args) =>
        (parseDuration(String(value)) ?? 0) >=
        (parseDuration((args?.object as { HTTP_HEADERS_TIMEOUT?: string }).HTTP_HEADERS_TIMEOUT ?? '') ?? 0),
      defaultMessage: () => 'must not be shorter than HTTP_HEADERS_TIMEOUT',
    },
  })
  HTTP_REQUEST_TIMEOUT = '30s';

  /** An idle keep-alive connection is closed after this: longer than a proxy's own idle timeout. */
  @Expose()
  @IsDurationWithin(1_000, 600_000, 'must be a duration from 1s to 10m, such as 65s')
  HTTP_KEEP_ALIVE_TIMEOUT = '65s';

  /** Open connections per process; always kept below the open-file limit (unset: that limit less 256). */
  @Expose()
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of 1 or more' })
  @Min(1, { message: 'must be a whole number of 1 or more' })
  MAX_CONNECTIONS?: number;

  /** Open connections per client (an IPv4 address or an IPv6 /64) unless it is a TRUST_PROXY proxy. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of 1 or more' })
  @Min(1, { message: 'must be a whole number of 1 or more' })
  MAX_CONNECTIONS_PER_CLIENT = 256;

  get connectionLimits(): ConnectionLimits {
    return {
      headersTimeoutMs: parseDuration(this.HTTP_HEADERS_TIMEOUT) ?? 0,
      requestTimeoutMs: parseDuration(this.HTTP_REQUEST_TIMEOUT) ?? 0,
      keepAliveTimeoutMs: parseDuration(this.HTTP_KEEP_ALIVE_TIMEOUT) ?? 0,
      maxConnections: connectionCap(softFileLimit(), this.MAX_CONNECTIONS),
      maxConnectionsPerClient: this.MAX_CONNECTIONS_PER_CLIENT,
    };
  }

  /** Console password checks (scrypt) running at once per API instance. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number from 1 to 64' })
  @Min(1, { message: 'must be a whole number from 1 to 64' })
  @Max(64, { message: 'must be a whole number from 1 to 64' })
  PASSWORD_HASH_CONCURRENCY = 2;

  /** Console password checks that may wait for one of those; more are refused with 429. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number from 0 to 1,000' })
  @Min(0, { message: 'must be a whole number from 0 to 1,000' })
  @Max(1_000, { message: 'must be a whole number from 0 to 1,000' })
  PASSWORD_HASH_QUEUE = 16;

  /**
   * Which proxies in front of the API may set X-Forwarded-For: a hop count, or a comma list of addresses,
   * subnets and the names loopback, linklocal, uniquelocal (Express "trust proxy"). Unset: none.
   */
  @Expose()
  @IsOptional()
  @ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isTrustProxy(value),
      defaultMessage: () =>
        'must be a hop count or a comma list of addresses, subnets, loopback, linklocal or uniquelocal ' +
        '(not true: that would trust any client to name its own address)',
    },
  })
  TRUST_PROXY?: string;

  get trustProxy(): number | string[] | undefined {
    if (!this.TRUST_PROXY) return undefined;
    return /^\d+$/.test(this.TRUST_PROXY) ? Number(this.TRUST_PROXY) : this.TRUST_PROXY.split(/\s*,\s*/);
  }

  /** How long outbox rows are kept after they were published (for inspection), then purged. */
  @Expose()
  @IsDurationFromOneMinute()
  OUTBOX_RETENTION = '24h';

  get outboxRetentionMs(): number {
    return parseDuration(this.OUTBOX_RETENTION) ?? 0;
  }

  /**
   * Where notices to merchants are e-mailed: `smtp://user:password@host:587` (STARTTLS
   * when the server offers it) or `smtps://…:465`. Unset: e-mail is off, and each notice is written to
   * the log instead (the start says so). Holds a password: only its host is ever logged.
   */
  @Expose()
  @IsOptional()
  @ValidateBy({
    name: 'isSmtpUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && smtpHostOf(value) !== null,
      defaultMessage: () =>
        'must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example:587',
    },
  })
  SMTP_URL?: string;

  /** The From of every e-mail payhook sends. */
  @Expose()
  @Matches(/^[^\r\n]{0,200}<?[^\s@<>]+@[^\s@<>]+>?$/, {
    message: 'must be an e-mail address, optionally with a name: payhook <notices@payhook.example>',
  })
  SMTP_FROM = 'payhook <notices@localhost>';

  /** SMTP_URL's host and port, for log lines: never its user or password. */
  get smtpHost(): string | null {
    return this.SMTP_URL ? smtpHostOf(this.SMTP_URL) : null;
  }

  /** A new merchant's fee in basis points (250 = 2.5%) until the operator sets another. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of basis points from 0 to 5,000' })
  @Min(0, { message: 'must be a whole number of basis points from 0 to 5,000' })
  @Max(5_000, { message: 'must be a whole number of basis points from 0 to 5,000' })
  DEFAULT_FEE_BPS = 250;

  /** A new merchant's business days from sales date to payout date. */
  @Expose()
  @ToInteger()
  @IsInt({ message: 'must be a whole number of business days from 1 to 30' })
  @Min(1, { message: 'must be a whole number of business days from 1 to 30' })
  @Max(30, { message: 'must be a whole number of business days from 1 to 30' })
  DEFAULT_SETTLEMENT_DELAY_DAYS = 2;

  /** The collection account shown on the payment screen for bank transfers. */
  @Expose()
  @IsPrintableText(100, { message: 'must be 1 to 100 printable characters' })
  DEPOSIT_BANK_NAME = 'Payhook Bank';

  @Expose()
  @Matches(/^[0-9][0-9-]{4,39}$/, { message: 'must be digits and dashes, such as 100-123-456789' })
  DEPOSIT_ACCOUNT_NUMBER = '100-000-000000';

  @Expose()
  @IsPrintableText(100, { message: 'must be 1 to 100 printable characters' })
  DEPOSIT_ACCOUNT_HOLDER = 'payhook Inc.';
}

/** `host:port` of an smtp(s):// URL, or null when it is not one. */
function smtpHostOf(value: string): string | null {
  try {
    const url = new URL(value);
    return ['smtp:', 'smtps:'].includes(url.protocol) && url.hostname ? url.host : null;
  } catch {
    return null;
  }
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * What Express's "trust proxy" compiles: a hop count, or names, addresses and subnets. Express would
 * also take `true` (trust every hop, so any client sets its own address and escapes every per-address
 * throttle); anything it cannot compile would crash the start far from the setting's name.
 */
function isTrustProxy(value: string): boolean {
  if (/^\d{1,2}$/.test(value)) return true;
  return value.split(/\s*,\s*/).every((entry) => {
    if (TRUST_PROXY_NAMES.has(entry)) return true;
    const [address, prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    if (version === 4 && isIPv4(prefix)) return true; // a netmask such as 255.255.0.0
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
  });
}

function IsDurationWithin(minMs: number, maxMs: number, message: string) {
  return ValidateBy({
    name: 'isDurationWithin',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : null;
        return ms !== null && ms >= minMs && ms <= maxMs;
      },
      defaultMessage: () => message,
    },
  });
}
