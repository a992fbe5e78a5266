import { databaseName, withDatabase } from '../../libs/persistence/src';
import { randomBytes } from 'node:crypto';
import { testDatabaseUrl } from './test-env';

/**
 * A database of one spec's own beside the run's: `<run>_<label>_<4 hex digits>_test`, so that specs
 * running side by side never share it and `assertTestDatabase` accepts it. The spec creates it (from
 * the template, or empty to migrate itself) and drops it.
 */
export function specDatabaseUrl(label: string): string {
  const run = databaseName(testDatabaseUrl()).replace(/_test$/, '');
  return withDatabase(testDatabaseUrl(), `${run}_${label}_${randomBytes(2).toString('hex')}_test`);
}
