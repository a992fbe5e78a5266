import { Injectable } from '@nestjs/common';
import { PayhookError, isIdOf, type ListEnvelope } from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import type { ListSettlementsQueryDto } from './dto/list-settlements.query.dto';
import { isCalendarDay } from '../../core/ledger';
import {
  SettlementsRepository,
  type SettlementCursor,
  type SettlementFilter,
  type SettlementTotals,
} from './settlements.repository';
import type { SettlementView } from './settlement.view';

const DEFAULT_PAGE_SIZE = 20;
/** Records read per statement by the daily export: what bounds its memory, however big the day. */
export const EXPORT_BATCH_SIZE = 1_000;

@Injectable()
export class SettlementsService {
  constructor(private readonly settlements: SettlementsRepository) {}

  /** By sales date, then completion time: oldest first (a ledger's order) unless asked otherwise. */
  async list(
    scope: MerchantScope,
    query: ListSettlementsQueryDto,
    options: { newestFirst?: boolean } = {},
  ): Promise<ListEnvelope<SettlementView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // A cursor must name a record of this merchant and mode at that position, as on every list.
    if (
      after &&
      (await this.settlements.findRecord(scope, after.paymentId, after.refundId))?.salesDate !== after.salesDate
    ) {
      throw new PayhookError('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
    }
    // One row more than asked tells whether there is a next page.
    const rows = await this.settlements.list(scope, { ...dateRange(query), after, limit: limit + 1, ...options });
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { data: page, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
  }

  /**
   * Every record of one sales date in list order, a batch at a time: the daily export. The date is
   * checked now, before anything is sent. Each batch continues after the last record of the one
   * before (keyset), so every read is a short range of settlements_day_order_idx.
   */
  dayInBatches(scope: MerchantScope, date: string, batchSize = EXPORT_BATCH_SIZE): AsyncIterable<SettlementView[]> {
    const day = checkedDate(date, 'date');
    const settlements = this.settlements;
    return (async function* () {
      let after: SettlementCursor | undefined;
      for (;;) {
        const batch = await settlements.list(scope, { from: day, to: day, after, limit: batchSize });
        if (batch.length > 0) yield batch;
        const last = batch.at(-1);
        if (batch.length < batchSize || !last) return;
        after = { salesDate: last.salesDate, paymentId: last.paymentId, refundId: last.refundId };
      }
    })();
  }

  /** One sales date's totals over all of its records, added up by the database. */
  dayTotals(scope: MerchantScope, date: string): Promise<SettlementTotals> {
    return this.settlements.dayTotals(scope, checkedDate(date, 'date'));
  }
}

function dateRange(query: ListSettlementsQueryDto): Pick<SettlementFilter, 'from' | 'to'> {
  if (query.date !== undefined) {
    if (query.from !== undefined || query.to !== undefined) {
      throw new PayhookError('parameter_invalid', 'Give either date or from/to, not both.', 'date');
    }
    const day = checkedDate(query.date, 'date');
    return { from: day, to: day };
  }
  const from = query.from === undefined ? undefined : checkedDate(query.from, 'from');
  const to = query.to === undefined ? undefined : checkedDate(query.to, 'to');
  if (from && to && from > to) throw new PayhookError('parameter_invalid', 'from must not be after to.', 'from');
  return { from, to };
}

/** A real calendar date in the range Postgres and the records use (the DTO checked only its shape). */
function checkedDate(text: string, param: string): string {
  if (!isCalendarDay(text)) {
    throw new PayhookError('parameter_invalid', `${param} is not a calendar date from 1970 to 9998: ${text}.`, param);
  }
  return text;
}

/** A payment record's cursor keeps its two fields (cursors handed out before refunds still work); a refund record's adds its id. */
function encodeCursor(row: SettlementView): string {
  const position = row.refundId ? [row.salesDate, row.paymentId, row.refundId] : [row.salesDate, row.paymentId];
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeCursor(text: string): SettlementCursor {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && (decoded.length === 2 || decoded.length === 3)) {
      const [salesDate, paymentId, refundId] = decoded as unknown[];
      const refund = refundId === undefined || (typeof refundId === 'string' && isIdOf('refund', refundId));
      if (typeof salesDate === 'string' && typeof paymentId === 'string' && isIdOf('payment', paymentId) && refund) {
        return { salesDate: checkedDate(salesDate, 'cursor'), paymentId, refundId: refundId ?? null };
      }
    }
  } catch {
    // fall through: not a cursor of ours
  }
  throw new PayhookError('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
}
