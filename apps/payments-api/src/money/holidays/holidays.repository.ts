import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { Holiday } from '../../core/ledger';

/** The non-banking days an operator added; payouts dated after they were added skip them. */
@Injectable()
export class HolidaysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Adds the day, or renames it when it is already there. */
  async add(holiday: Holiday): Promise<Holiday> {
    const [row] = await sqlRows<Holiday>(
      this.db,
      `INSERT INTO non_banking_days (date, name) VALUES ($1, $2)
       ON CONFLICT (date) DO UPDATE SET name = EXCLUDED.name
       RETURNING to_char(date, 'YYYY-MM-DD') AS date, name`,
      [holiday.date, holiday.name],
    );
    return row;
  }

  inYear(year: number): Promise<Holiday[]> {
    return sqlRows<Holiday>(
      this.db,
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, name FROM non_banking_days
       WHERE date >= make_date($1, 1, 1) AND date < make_date($1 + 1, 1, 1) ORDER BY date`,
      [year],
    );
  }
}
