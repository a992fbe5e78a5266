import { Injectable } from '@nestjs/common';
import { PayhookError, type ListEnvelope } from '@payhook/contracts';
import type { MerchantScope } from '../payments/payment.record';
import type { ListSettlementsQueryDto } from '../settlements/dto/list-settlements.query.dto';
import type { SettlementView } from '../settlements/settlement.view';
import { SettlementsService } from '../settlements/settlements.service';
import { BAD_CURSOR } from './console-settlement-filters';

export interface SettlementTotals {
  /** Every record of the sales date, not only the page on screen. */
  count: number;
  grossAmount: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
}

export type SettlementsPage =
  | { kind: 'page'; page: ListEnvelope<SettlementView>; totals: SettlementTotals | null }
  | { kind: 'invalid'; message: string };

function addUp(totals: SettlementTotals, rows: SettlementView[]): SettlementTotals {
  totals.count += rows.length;
  for (const row of rows) {
    totals.grossAmount += row.grossAmount;
    totals.feeAmount += row.feeAmount;
    totals.vatAmount += row.vatAmount;
    totals.netAmount += row.netAmount;
  }
  return totals;
}

function noTotals(): SettlementTotals {
  return { count: 0, grossAmount: 0, feeAmount: 0, vatAmount: 0, netAmount: 0 };
}

@Injectable()
export class ConsoleSettlementsService {
  constructor(private readonly settlements: SettlementsService) {}

  /**
   * The API's list with its rules (date range, keyset cursor); a refused query is shown, not thrown.
   * With one sales date, also that date's totals: over all of its records, so they match the CSV even
   * when the day spans more than one page.
   */
  async list(scope: MerchantScope, query: ListSettlementsQueryDto, day: string | null): Promise<SettlementsPage> {
    let page: ListEnvelope<SettlementView>;
    try {
      page = await this.settlements.list(scope, query, { newestFirst: true });
    } catch (error) {
      if (!(error instanceof PayhookError) || error.code !== 'parameter_invalid') throw error;
      return { kind: 'invalid', message: error.param === 'cursor' ? BAD_CURSOR : error.message };
    }
    if (day === null) return { kind: 'page', page, totals: null };
    const wholeDay = query.cursor === undefined && !page.hasMore;
    return { kind: 'page', page, totals: wholeDay ? addUp(noTotals(), page.data) : await this.dayTotals(scope, day) };
  }

  /** Added up a batch at a time, as the CSV is written: a day of any size costs one batch of memory. */
  private async dayTotals(scope: MerchantScope, day: string): Promise<SettlementTotals> {
    const totals = noTotals();
    for await (const batch of this.settlements.dayInBatches(scope, day)) addUp(totals, batch);
    return totals;
  }

  /** Every record of one sales date, a batch at a time, for the CSV. */
  dayInBatches(scope: MerchantScope, day: string): AsyncIterable<SettlementView[]> {
    return this.settlements.dayInBatches(scope, day);
  }
}
