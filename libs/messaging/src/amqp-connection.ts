import { connect, type AmqpConnectionManager } from 'amqp-connection-manager';

/** Exchange and queue names are prefixed so several stacks (or test runs) can share one broker. */
export function namespaced(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/** How long a node may take to accept a connection before the next one is tried. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A connection that reconnects by itself after a broker restart; channels set up on it
 * re-declare their topology on every reconnect. With several nodes of one cluster (AMQP_URL,
 * DESIGN.md §9), amqp-connection-manager tries them in turn: a node that refuses, times out or
 * drops the connection hands over to the next one after `reconnectTimeInSeconds`.
 */
export function createAmqpConnection(urls: string[], connectionName: string): AmqpConnectionManager {
  return connect(urls, {
    heartbeatIntervalInSeconds: 10,
    reconnectTimeInSeconds: 1,
    // A node that is gone without a refusal (its host down, a partition) must not hold the move for minutes.
    connectionOptions: { timeout: CONNECT_TIMEOUT_MS, clientProperties: { connection_name: connectionName } },
  });
}
