// The integration-tests feature's door: what the other rooms may use of it.
export type { IntegrationTestView } from './integration-test.record';
export { IntegrationTestsRepository } from './integration-tests.repository';
export { OnboardingModule } from './onboarding.module';
