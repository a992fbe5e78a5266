import { QuietStartupLogger, SHARED_PROCESS_WARNINGS, originOf } from './startup-lines';

describe('originOf', () => {
  it('names every-interface listeners localhost and keeps a chosen address', () => {
    expect(originOf({ address: '::', family: 'IPv6', port: 3000 })).toBe('http://localhost:3000');
    expect(originOf({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://localhost:3000');
    expect(originOf({ address: '127.0.0.1', family: 'IPv4', port: 3001 })).toBe('http://127.0.0.1:3001');
    expect(originOf({ address: '::1', family: 'IPv6', port: 3001 })).toBe('http://[::1]:3001');
  });
});

describe('QuietStartupLogger', () => {
  function recording() {
    const calls: string[] = [];
    const inner = {
      log: (message: string, context: string) => calls.push(`log ${context}: ${message}`),
      debug: (message: string, context: string) => calls.push(`debug ${context}: ${message}`),
      error: () => undefined,
      warn: (message: string, context: string) => calls.push(`warn ${context}: ${message}`),
    };
    return { calls, inner };
  }

  it("moves Nest's route and module lines to debug and passes every other line on", () => {
    const { calls, inner } = recording();
    const logger = new QuietStartupLogger(inner);
    logger.log('Mapped {/v1/payments, POST} route', 'RouterExplorer');
    logger.log('PaymentsController {/v1/payments}:', 'RoutesResolver');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('payments-api listening: API http://localhost:3000/v1', 'payments-api');
    expect(calls).toEqual([
      'debug RouterExplorer: Mapped {/v1/payments, POST} route',
      'debug RoutesResolver: PaymentsController {/v1/payments}:',
      'debug InstanceLoader: AppModule dependencies initialized',
      'log payments-api: payments-api listening: API http://localhost:3000/v1',
    ]);
  });

  it('moves Nest\'s own "successfully started" to debug: the app\'s listening line says it', () => {
    const { calls, inner } = recording();
    new QuietStartupLogger(inner).log('Nest application successfully started', 'NestApplication');
    expect(calls).toEqual(['debug NestApplication: Nest application successfully started']);
  });

  it('drops the warnings that do not apply to its process and passes the others on', () => {
    const { calls, inner } = recording();
    const logger = new QuietStartupLogger(inner, SHARED_PROCESS_WARNINGS);
    logger.warn('A data source with the name "default" is already registered', 'DataSourceNameRegistry');
    logger.warn('payhook: the broker is slow', 'WebhookQueueServer');
    new QuietStartupLogger(inner).warn(
      'A data source with the name "default" is already registered',
      'DataSourceNameRegistry',
    );
    expect(calls).toEqual([
      'warn WebhookQueueServer: payhook: the broker is slow',
      'warn DataSourceNameRegistry: A data source with the name "default" is already registered',
    ]);
  });
});
