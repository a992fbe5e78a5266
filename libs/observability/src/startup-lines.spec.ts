import { QuietStartupLogger, originOf } from './startup-lines';

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
      warn: () => undefined,
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

  it('drops them for a logger without levels of its own when debug is off', () => {
    const { calls, inner } = recording();
    const logger = new QuietStartupLogger(inner, false);
    logger.log('Mapped {/v1/payments, POST} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    expect(calls).toEqual(['log NestApplication: Nest application successfully started']);
  });
});
