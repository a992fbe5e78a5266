import type { Client } from 'pg';
import { databaseClient } from './database-client';

/**
 * A dedicated connection that LISTENs on one channel and calls `onNotify` for each notification.
 * If the connection drops it reconnects after `retryMs`; whoever uses it polls as well, so a
 * notification missed meanwhile only delays work.
 */
export class NotificationListener {
  private client?: Client;
  private stopped = false;

  constructor(
    private readonly options: {
      url: string;
      channel: string;
      applicationName: string;
      onNotify: () => void;
      retryMs: number;
    },
  ) {}

  /** Resolves once the first connection is listening, or has failed and will be retried. */
  start(): Promise<void> {
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { url, channel, applicationName, onNotify, retryMs } = this.options;
    const client = databaseClient(url, { application_name: applicationName });
    const retry = () => {
      client.removeAllListeners();
      // A dead connection may still report errors while it ends; unheard, one would end the process.
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.connect(), retryMs).unref();
    };
    client.on('error', retry);
    client.on('notification', onNotify);
    // Kept before connecting, so a stop during the connect still ends it.
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      if (this.stopped) await client.end();
    } catch {
      retry();
    }
  }
}
