/** The scenarios of the integration test, in the order they run (`GET /v1/integration-tests/{id}`). */
export const SCENARIO_NAMES = ['completion', 'retries', 'duplicates', 'review'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];
