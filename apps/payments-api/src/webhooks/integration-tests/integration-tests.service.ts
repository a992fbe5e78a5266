import { Injectable, Logger } from '@nestjs/common';
import { PayhookError, newId } from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import { SCENARIO_NAMES, type IntegrationTestView } from './integration-test.record';
import { IntegrationTestRunner } from './integration-test.runner';
import { IntegrationTestsRepository } from './integration-tests.repository';

@Injectable()
export class IntegrationTestsService {
  private readonly logger = new Logger(IntegrationTestsService.name);

  constructor(
    private readonly runs: IntegrationTestsRepository,
    private readonly runner: IntegrationTestRunner,
  ) {}

  /** Records the run and starts it in the background; the caller polls GET for the outcome. */
  async start(scope: MerchantScope): Promise<{ id: string; status: 'running' }> {
    // One run at a time per merchant: a second start while one runs returns that run.
    const latest = await this.runs.latest(scope.merchantId);
    if (latest?.status === 'running') return { id: latest.id, status: 'running' };
    const id = newId('integrationTest');
    await this.runs.insert(
      id,
      scope.merchantId,
      SCENARIO_NAMES.map((name) => ({ name, status: 'pending', detail: '' })),
    );
    void this.runner.run(id, scope).catch((error: unknown) => this.logger.error(`run ${id} failed: ${String(error)}`));
    return { id, status: 'running' };
  }

  async get(scope: MerchantScope, id: string): Promise<IntegrationTestView> {
    const run = await this.runs.find(scope.merchantId, id);
    if (!run) throw new PayhookError('resource_not_found', `No such integration test: ${id}.`, 'id');
    return run;
  }
}
