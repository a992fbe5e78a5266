import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { IntegrationTestView, RunStatus, ScenarioResult } from './integration-test.record';

/** A run still `running` after this long was cut off (its API instance stopped): it reads as failed. */
const ABANDONED_AFTER = '3 minutes';

interface RunRow {
  id: string;
  status: RunStatus;
  scenarios: ScenarioResult[];
  started_at: Date;
  finished_at: Date | null;
  abandoned: boolean;
}

function toView(row: RunRow): IntegrationTestView {
  if (row.abandoned) {
    return {
      id: row.id,
      status: 'failed',
      scenarios: row.scenarios.map((scenario) =>
        scenario.status === 'passed' || scenario.status === 'failed'
          ? scenario
          : { ...scenario, status: 'failed', detail: 'The run was interrupted before this scenario finished.' },
      ),
      startedAt: row.started_at.toISOString(),
      finishedAt: null,
    };
  }
  return {
    id: row.id,
    status: row.status,
    scenarios: row.scenarios,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

const COLUMNS = `id, status, scenarios, started_at, finished_at,
  (status = 'running' AND started_at < now() - interval '${ABANDONED_AFTER}') AS abandoned`;

@Injectable()
export class IntegrationTestsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(id: string, merchantId: string, scenarios: ScenarioResult[]): Promise<IntegrationTestView> {
    const rows = await sqlRows<RunRow>(
      this.db,
      `INSERT INTO integration_tests (id, merchant_id, status, scenarios) VALUES ($1, $2, 'running', $3)
       RETURNING ${COLUMNS}`,
      [id, merchantId, JSON.stringify(scenarios)],
    );
    return toView(rows[0]);
  }

  async saveScenarios(id: string, scenarios: ScenarioResult[]): Promise<void> {
    await sqlRows(this.db, `UPDATE integration_tests SET scenarios = $2 WHERE id = $1`, [
      id,
      JSON.stringify(scenarios),
    ]);
  }

  /**
   * Ends the run; when it passed, an approved (integrating) merchant goes live in the same
   * statement, so no passed run can leave the merchant locked.
   */
  async finish(id: string, status: Exclude<RunStatus, 'running'>, scenarios: ScenarioResult[]): Promise<void> {
    await sqlRows(
      this.db,
      `WITH run AS (
         UPDATE integration_tests SET status = $2, scenarios = $3, finished_at = now()
         WHERE id = $1 RETURNING merchant_id
       )
       UPDATE merchants SET status = 'live', updated_at = now()
       WHERE $2 = 'passed' AND status = 'integrating' AND id = (SELECT merchant_id FROM run)`,
      [id, status, JSON.stringify(scenarios)],
    );
  }

  async find(merchantId: string, id: string): Promise<IntegrationTestView | null> {
    const rows = await sqlRows<RunRow>(
      this.db,
      `SELECT ${COLUMNS} FROM integration_tests WHERE id = $1 AND merchant_id = $2`,
      [id, merchantId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The merchant's last runs, newest first. */
  async recent(merchantId: string, limit: number): Promise<IntegrationTestView[]> {
    const rows = await sqlRows<RunRow>(
      this.db,
      `SELECT ${COLUMNS} FROM integration_tests WHERE merchant_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`,
      [merchantId, limit],
    );
    return rows.map(toView);
  }

  async latest(merchantId: string): Promise<IntegrationTestView | null> {
    const rows = await sqlRows<RunRow>(
      this.db,
      `SELECT ${COLUMNS} FROM integration_tests WHERE merchant_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [merchantId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }
}
