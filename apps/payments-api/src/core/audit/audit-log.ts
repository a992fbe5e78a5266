import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@payhook/contracts';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { AuditAction, AuditEntry } from './audit-entry';

export interface AuditRecord {
  id: string;
  actor: string;
  action: AuditAction;
  target: string | null;
  clientAddress: string | null;
  createdAt: Date;
}

export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
  /** Keyset: entries older than this one. */
  before?: { createdAt: Date; id: string };
}

interface AuditRow {
  id: string;
  actor: string;
  action: AuditAction;
  target: string | null;
  client_address: string | null;
  created_at: Date;
}

/**
 * The audit log. A change and its entry commit together: `audited` runs the change and writes the
 * entry in one transaction, and a change made inside Ledger.write writes its entry with `record`
 * on the ledger's own transaction (`recordAll` for a batch of test refunds, ADR 0015). Entries are never updated; kept at least a year (retention).
 */
@Injectable()
export class AuditLog {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `change` and records its entry in the same transaction: neither commits without the other.
   * `entry` may depend on what the change returned, and be null when it changed nothing.
   */
  audited<R>(entry: AuditEntry | ((result: R) => AuditEntry | null), change: (sql: Sql) => Promise<R>): Promise<R> {
    return inTransaction(this.db, async (sql) => {
      const result = await change(sql);
      const made = typeof entry === 'function' ? entry(result) : entry;
      if (made) await this.record(sql, made);
      return result;
    });
  }

  /** Writes one entry with `sql`, which must be the transaction of the change it records. */
  record(sql: Sql, entry: AuditEntry): Promise<void> {
    return this.recordAll(sql, [entry]);
  }

  /** Several entries in one statement (a batch of changes committed together). */
  async recordAll(sql: Sql, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const column = <K extends keyof AuditEntry>(key: K) => entries.map((entry) => entry[key]);
    await sql(
      `INSERT INTO audit_log (id, merchant_id, actor, action, target, client_address)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      [
        entries.map(() => newId('auditEntry')),
        column('merchantId'),
        column('actor'),
        column('action'),
        column('target'),
        column('clientAddress'),
      ],
      'record-audit-entries',
    );
  }

  /** Newest first, `limit` entries of the merchant; each filter combination is a scan of its own index. */
  async list(merchantId: string, filter: AuditFilter, limit: number): Promise<AuditRecord[]> {
    const params: unknown[] = [merchantId];
    const where = ['merchant_id = $1'];
    if (filter.actor !== undefined) {
      params.push(filter.actor);
      where.push(`actor = $${params.length}`);
    }
    if (filter.action !== undefined) {
      params.push(filter.action);
      where.push(`action = $${params.length}`);
    }
    if (filter.before) {
      params.push(filter.before.createdAt, filter.before.id);
      where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit);
    const rows = await sqlRows<AuditRow>(
      this.db,
      `SELECT id, actor, action, target, client_address, created_at FROM audit_log
       WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      clientAddress: row.client_address,
      createdAt: row.created_at,
    }));
  }
}
