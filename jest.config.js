// @ts-check
/**
 * Three tiers (STYLE.md): unit specs beside the code (pure logic), integration specs beside the
 * repository or relay they cover, and e2e specs under test/ that boot the real apps.
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

/** @type {import('jest').Config['projects']} */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  // Nest, the Korean holiday data and otplib's audited crypto (@noble, @scure) ship as ES modules.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@hyunbinseo|@otplib|@noble|@scure)/)'],
  moduleNameMapper: aliases,
};

/** @type {import('jest').Config} */
module.exports = {
  // The services specs boot apps, databases and browsers on shared, busy CI hosts: a timeout is a
  // hang detector, not a speed test. Specs whose work is bigger size their own from it
  // (test/support/time-budget.ts). Jest reads this for every project or none.
  testTimeout: 60_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      // test/**/*.spec.ts: checks of files outside the code, such as docker-compose.yml.
      testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    },
    {
      // Integration and e2e specs share one fresh database and broker namespace per run.
      ...shared,
      displayName: 'services',
      testMatch: [
        '<rootDir>/{apps,libs}/**/*.integration-spec.ts',
        '<rootDir>/examples/**/*.integration-spec.ts',
        '<rootDir>/test/**/*.e2e-spec.ts',
        '<rootDir>/test/**/*.browser-spec.ts',
      ],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
