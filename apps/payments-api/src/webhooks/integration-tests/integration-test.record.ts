import type { ScenarioName } from '@payhook/contracts';
export { SCENARIO_NAMES, type ScenarioName } from '@payhook/contracts';

export type ScenarioStatus = 'pending' | 'running' | 'passed' | 'failed';
export type RunStatus = 'running' | 'passed' | 'failed';

export interface ScenarioResult {
  name: ScenarioName;
  status: ScenarioStatus;
  /** What was sent and what came back, so a failing merchant can see why. */
  detail: string;
}

export interface IntegrationTestView {
  id: string;
  status: RunStatus;
  scenarios: ScenarioResult[];
  startedAt: string;
  finishedAt: string | null;
}
