import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { dropDatabase } from './drop-database';
import { createFromTemplate } from './template-database';
import { specDatabaseUrl } from './spec-database';
import { testAmqpNamespace, testAmqpUrl } from './test-env';

/** What to pass to PaymentsApiHarness.start() and startDispatcher() (or a spawned app's env). */
export type IsolatedEnv = {
  DATABASE_URL: string;
  AMQP_URL: string;
  AMQP_NAMESPACE: string;
};

export interface IsolatedServices {
  env: IsolatedEnv;
  /** The RabbitMQ vhost the apps connect to. */
  vhost: string;
  /** Drops the database (and the vhost when it is this spec's own); call after the apps stopped. */
  drop(): Promise<void>;
}

/**
 * A database (the real migrations: a copy of the run's template) and a broker namespace of one
 * spec file's own, inside this run.
 *
 * Webhook specs count attempts and deliveries. Every payments-api relays every outbox row of its
 * database, and every dispatcher consumes its namespace's queue with its own retry schedule and
 * timeout; sharing the run's database and namespace would let another spec's apps deliver this
 * spec's events (in parallel workers, or from messages left over). `ownVhost` also gives the spec
 * a vhost of its own, for tests that close every broker connection.
 */
export async function isolatedServices(label: string, options: { ownVhost?: boolean } = {}): Promise<IsolatedServices> {
  const suffix = `${label}_${randomBytes(2).toString('hex')}`;
  const databaseUrl = specDatabaseUrl(label);
  await createFromTemplate(databaseUrl);

  const amqpUrl = new URL(testAmqpUrl());
  let ownVhost: string | undefined;
  if (options.ownVhost) {
    ownVhost = `${decodeURIComponent(amqpUrl.pathname.slice(1))}_${suffix}`;
    execFileSync('rabbitmqctl', ['-q', 'add_vhost', ownVhost]);
    execFileSync('rabbitmqctl', [
      '-q',
      'set_permissions',
      '-p',
      ownVhost,
      amqpUrl.username || 'guest',
      '.*',
      '.*',
      '.*',
    ]);
    amqpUrl.pathname = `/${encodeURIComponent(ownVhost)}`;
  }

  return {
    env: {
      DATABASE_URL: databaseUrl,
      AMQP_URL: amqpUrl.toString(),
      AMQP_NAMESPACE: `${testAmqpNamespace()}_${suffix}`,
    },
    vhost: decodeURIComponent(amqpUrl.pathname.slice(1)),
    drop: async () => {
      if (ownVhost) execFileSync('rabbitmqctl', ['-q', 'delete_vhost', ownVhost]);
      await dropDatabase(databaseUrl);
    },
  };
}
