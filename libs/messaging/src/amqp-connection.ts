import { Logger } from '@nestjs/common';
import { connect, type AmqpConnectionManager } from 'amqp-connection-manager';

/** Exchange and queue names are prefixed so several stacks (or test runs) can share one broker. */
export function namespaced(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/** How long a node may take to accept a connection before the next one is tried. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A connection that reconnects by itself after a broker restart; channels set up on it
 * re-declare their topology on every reconnect. With several nodes of one cluster (AMQP_URL
 * lists them), amqp-connection-manager tries them in turn: a node that refuses, times out or
 * drops the connection hands over to the next one after `reconnectTimeInSeconds`.
 */
export function createAmqpConnection(urls: string[], connectionName: string): AmqpConnectionManager {
  const connection = connect(urls, {
    heartbeatIntervalInSeconds: 10,
    reconnectTimeInSeconds: 1,
    // A node that is gone without a refusal (its host down, a partition) must not hold the move for minutes.
    connectionOptions: { timeout: CONNECT_TIMEOUT_MS, clientProperties: { connection_name: connectionName } },
  });
  logNodeChanges(connection);
  return connection;
}

/** Which node an app is on, and when it moves: the operator's view of a failover (host and port only). */
function logNodeChanges(connection: AmqpConnectionManager): void {
  const logger = new Logger('RabbitMQ');
  connection.on('connect', ({ url }) => logger.log(`connected to ${nodeOf(url)}`));
  connection.on('disconnect', ({ err }) => logger.warn(`connection lost (${err?.message ?? 'closed'}); trying again`));
  connection.on('connectFailed', ({ err, url }) =>
    logger.warn(`${nodeOf(url)} did not take the connection (${err?.message ?? 'refused'}); trying the next node`),
  );
}

/** host:port of a node's URL, never its credentials. */
function nodeOf(url: unknown): string {
  try {
    const parsed = new URL(typeof url === 'string' ? url : String((url as { url?: string })?.url));
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'a node';
  }
}
