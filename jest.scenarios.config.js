// @ts-check
/**
 * The scenarios (`npm run test:scenarios`, beside `npm run check` in CI): real processes of the built
 * apps (local mode, apps starting together, a killed dispatcher, the CLI, the SDK package), on the
 * services the other tiers share. `npm run test:scenario-specs -- test/scenarios/<name>` runs one.
 */
const tiers = require('./jest.config.js');

const e2e = tiers.projects?.find((project) => typeof project === 'object' && project.displayName === 'e2e');
if (typeof e2e !== 'object') throw new Error('jest.config.js has no e2e project to take the services setup from');

/** @type {import('jest').Config} */
module.exports = {
  ...tiers,
  // Two at once: they run beside `npm run check` in CI, and each starts several processes of its own.
  maxWorkers: Number(process.env.JEST_WORKERS ?? 2),
  projects: [
    {
      ...e2e,
      displayName: 'scenarios',
      testMatch: ['<rootDir>/test/scenarios/**/*.scenario-spec.ts'],
      // They run the built apps (dist/): one build for the run, when a source is newer than the last.
      globalSetup: '<rootDir>/test/support/scenarios-setup.ts',
    },
  ],
};
