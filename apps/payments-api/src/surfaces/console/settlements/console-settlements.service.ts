import { Injectable } from '@nestjs/common';
import { PayhookError, type ListEnvelope } from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import {
  SettlementsService,
  type ListSettlementsQueryDto,
  type SettlementSums,
  type SettlementTotals,
  type SettlementView,
} from '../../../money/settlements';
import type { SettlementsError } from './console-settlement-filters';

/** Every record of the sales date, not only the page on screen. */
export type { SettlementTotals };

export type SettlementsPage =
  | { kind: 'page'; page: ListEnvelope<SettlementView>; totals: SettlementTotals | null }
  | { kind: 'invalid'; error: SettlementsError };

const noSums = (): SettlementSums => ({ count: 0, grossAmount: 0, feeAmount: 0, vatAmount: 0, netAmount: 0 });

function add(sums: SettlementSums, row: SettlementView): void {
  sums.count += 1;
  sums.grossAmount += row.grossAmount;
  sums.feeAmount += row.feeAmount;
  sums.vatAmount += row.vatAmount;
  sums.netAmount += row.netAmount;
}

/** The same totals as SettlementsRepository.dayTotals, from rows already read. */
function addUp(rows: SettlementView[]): SettlementTotals {
  const totals: SettlementTotals = { ...noSums(), held: noSums() };
  for (const row of rows) {
    add(totals, row);
    if (row.payoutStatus === 'held') add(totals.held, row);
  }
  return totals;
}

@Injectable()
export class ConsoleSettlementsService {
  constructor(private readonly settlements: SettlementsService) {}

  /**
   * The API's list with its rules (date range, keyset cursor); a refused cursor is shown, not thrown.
   * The filters checked the dates by the same rules already, so the cursor is all the API can refuse.
   * With one sales date, also that date's totals: over all of its records, so they match the CSV even
   * when the day spans more than one page.
   */
  async list(scope: MerchantScope, query: ListSettlementsQueryDto, day: string | null): Promise<SettlementsPage> {
    let page: ListEnvelope<SettlementView>;
    try {
      page = await this.settlements.list(scope, query, { newestFirst: true });
    } catch (error) {
      if (!(error instanceof PayhookError) || error.code !== 'parameter_invalid' || error.param !== 'cursor') {
        throw error;
      }
      return { kind: 'invalid', error: 'error.badCursor' };
    }
    if (day === null) return { kind: 'page', page, totals: null };
    const wholeDay = query.cursor === undefined && !page.hasMore;
    // The page on screen is the whole day: its rows are the totals, with no second statement.
    const totals = wholeDay ? addUp(page.data) : await this.settlements.dayTotals(scope, day);
    return { kind: 'page', page, totals };
  }

  /** Every record of one sales date, a batch at a time, for the CSV. */
  dayInBatches(scope: MerchantScope, day: string): AsyncIterable<SettlementView[]> {
    return this.settlements.dayInBatches(scope, day);
  }
}
