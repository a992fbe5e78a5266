// The integration-tests feature's door: what the other rooms and the surfaces may use of it.
export type { IntegrationTestView } from './integration-test.record';
export { IntegrationTestsRepository } from './integration-tests.repository';
export { OnboardingModule } from './onboarding.module';
// Running a test from the console's developers page.
export { IntegrationTestsService } from './integration-tests.service';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { INTEGRATION_TEST_SCHEMAS } from './integration-tests.schemas';
