import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml as Compose would run it (there is no Docker engine in CI): the file parsed,
 * `${…}` interpolated from a given environment the way Compose does, profiles applied.
 */
type Service = {
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  extra_hosts?: string[];
};

const source = readFileSync(join(__dirname, '../../docker-compose.yml'), 'utf8');

/** The variables docs/running.md's Docker Compose command sets; everything else unset. */
const REQUIRED = {
  ADMIN_TOKEN: 'a'.repeat(48),
  SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
  POSTGRES_PASSWORD: 'postgres-password-from-env',
  RABBITMQ_PASSWORD: 'rabbitmq-password-from-env',
};

/** Compose's interpolation: ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}, $$. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g,
    (match, name?: string, colon?: string, kind?: string, argument?: string) => {
      if (match === '$$') return '$';
      const value = env[name!];
      const missing = value === undefined || (colon === ':' && value === '');
      if (kind === '?' && missing) throw new Error(`required variable ${name} is missing: ${argument}`);
      if (kind === '-' && missing) return argument!;
      return value ?? '';
    },
  );
}

/** Like Compose, interpolates the parsed file's strings, so `${X:-false}` stays the string "false". */
function interpolateAll(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]));
  }
  return value;
}

function compose(env: Record<string, string | undefined>, profiles: string[] = []): Record<string, Service> {
  const file = interpolateAll(parse(source, { merge: true }), env) as { services: Record<string, Service> };
  return Object.fromEntries(
    Object.entries(file.services).filter(([, service]) =>
      (service.profiles ?? []).every((profile) => profiles.includes(profile)),
    ),
  );
}

describe('docker-compose.yml', () => {
  it('keeps the SSRF guard on and maps no Docker host by default, in production mode', () => {
    const services = compose(REQUIRED);
    for (const name of ['payments-api', 'webhook-dispatcher']) {
      expect(services[name].environment).toMatchObject({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    }
    for (const service of Object.values(services)) {
      expect(service.extra_hosts ?? []).toEqual([]);
    }
    expect(services['webhook-receiver']).toBeUndefined();
  });

  it('runs the receiver for local trials only in the trial profile', () => {
    const services = compose({ ...REQUIRED, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, ['trial']);
    expect(services['webhook-receiver']).toBeDefined();
    expect(services['webhook-receiver'].ports).toBeUndefined();
    expect(services['webhook-dispatcher'].environment?.WEBHOOK_ALLOW_PRIVATE_URLS).toBe('true');
  });

  it('publishes only the API to the host: no RabbitMQ management UI, no database, no broker', () => {
    const published = Object.entries(compose(REQUIRED, ['trial'])).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => `${name} ${port}`),
    );
    expect(published).toEqual(['payments-api 3000:3000']);
  });

  it.each(Object.keys(REQUIRED))('refuses to start without %s (no default password or key)', (name) => {
    const env: Record<string, string | undefined> = { ...REQUIRED, [name]: undefined };
    expect(() => compose(env)).toThrow(`required variable ${name} is missing`);
    expect(() => compose({ ...env, [name]: '' })).toThrow(`required variable ${name} is missing`);
  });

  it('hands the passwords from the environment to the services that use them', () => {
    const services = compose(REQUIRED);
    expect(services.postgres.environment?.POSTGRES_PASSWORD).toBe(REQUIRED.POSTGRES_PASSWORD);
    expect(services.rabbitmq.environment?.RABBITMQ_DEFAULT_PASS).toBe(REQUIRED.RABBITMQ_PASSWORD);
    expect(services['webhook-dispatcher'].environment).toMatchObject({
      DATABASE_URL: `postgres://postgres:${REQUIRED.POSTGRES_PASSWORD}@postgres:5432/payhook`,
      AMQP_URL: `amqp://payhook:${REQUIRED.RABBITMQ_PASSWORD}@rabbitmq:5672`,
    });
  });
});
