import { isDatabaseUnavailable } from './pg-errors';

describe('isDatabaseUnavailable (503 with Retry-After, never 500)', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a server shutting down', { code: '57P01' }],
    ['a replica cancelling a query that conflicts with recovery', { code: '40001' }],
    ['a deadlock victim', { code: '40P01' }],
    ['a primary that no longer takes writes (a failover under way)', { code: '25006' }],
    ['no host of a DATABASE_URL list to connect to', { code: '08001' }],
    ['a dropped connection, in words only', { message: 'Connection terminated unexpectedly' }],
    ['TypeORM wrapping the driver error', { driverError: { code: '08006' } }],
    ['one of the addresses tried', { errors: [{ code: 'ECONNREFUSED' }] }],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a syntax error', { code: '42601' }],
    ['anything else', new Error('boom')],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
