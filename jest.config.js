// @ts-check
/**
 * The tiers of `npm test` (docs/testing.md): `unit` specs beside the code (pure logic, and checks of
 * files such as docker-compose.yml under test/), `integration` specs beside the repository or relay
 * they cover, `e2e` and `browser` specs under test/ that boot the real apps in-process. The
 * scenarios (real processes) have a config of their own, jest.scenarios.config.js.
 * Nest 12 ships as ES modules; Jest on Node 20 cannot require() them, so swc compiles them to
 * CommonJS along with our TypeScript.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const aliases = Object.fromEntries(
  ['auth', 'config', 'contracts', 'messaging', 'observability', 'persistence', 'sdk', 'signing', 'webhook-http'].map(
    (lib) => [`^@payhook/${lib}$`, `<rootDir>/libs/${lib}/src`],
  ),
);

/** @type {import('jest').Config} */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  // Nest, the Korean holiday data, otplib's audited crypto (@noble, @scure) and intl-messageformat
  // (with its @formatjs parts) ship as ES modules.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@hyunbinseo|@otplib|@noble|@scure|intl-messageformat|@formatjs)/)',
  ],
  moduleNameMapper: aliases,
};

/**
 * Every tier that talks to Postgres and RabbitMQ shares one run: a migrated template database, a
 * database made from it and a vhost of its own (set up once, however many of these tiers run).
 */
const services = {
  ...shared,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  // The services specs boot apps, databases and browsers on shared, busy CI hosts: a timeout is a
  // hang detector, not a speed test. Specs whose work is bigger size their own from it
  // (test/support/time-budget.ts). Jest reads this for every project or none.
  testTimeout: 60_000,
  // Most specs wait on Postgres, RabbitMQ, a socket or a child process, not on the CPU: on two cores
  // four workers keep both busy (docs/testing.md has the measurements). JEST_WORKERS overrides.
  maxWorkers: Number(process.env.JEST_WORKERS ?? 4),
  // A worker whose event loop has emptied still frees its heap (300-500 MB after a run) before it is
  // gone, which took 450-650 ms here: past Jest's default 500 ms, so it called every run's workers
  // leaking. A worker that truly leaks a socket or a timer still never exits, and is reported.
  workerGracefulExitTimeout: 5_000,
  // Each spec file's time, for `npm run test:timings`.
  reporters: ['default', '<rootDir>/test/support/timings-reporter.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,examples}/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    },
    {
      ...services,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,examples}/**/*.integration-spec.ts'],
    },
    { ...services, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    {
      ...services,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      // One Chromium for the run, which every browser spec connects to.
      globalSetup: '<rootDir>/test/support/browser-setup.ts',
      globalTeardown: '<rootDir>/test/support/browser-teardown.ts',
      // A browser test is a journey through several pages, each checked by axe-core.
      setupFilesAfterEnv: ['<rootDir>/test/support/browser-timeout.ts'],
    },
  ],
};
