import { connect, type AmqpConnectionManager } from 'amqp-connection-manager';

/** Exchange and queue names are prefixed so several stacks (or test runs) can share one broker. */
export function namespaced(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/**
 * A connection that reconnects by itself after a broker restart; channels set up on it
 * re-declare their topology on every reconnect.
 */
export function createAmqpConnection(url: string, connectionName: string): AmqpConnectionManager {
  return connect([url], {
    heartbeatIntervalInSeconds: 10,
    reconnectTimeInSeconds: 1,
    connectionOptions: { clientProperties: { connection_name: connectionName } },
  });
}
