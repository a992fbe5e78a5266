// The settlements feature's door: what the other rooms and the surfaces may use of it.
// Its module, service and reads, for the console's settlements page, its CSV export and a payment's page.
export { SettlementsModule } from './settlements.module';
export { SettlementsService } from './settlements.service';
export { SettlementsRepository, type SettlementSums, type SettlementTotals } from './settlements.repository';
export type { SettlementView } from './settlement.view';
export { sendSettlementsCsv } from './settlements-csv.response';
// The sales date's zone and the calendar check, as the ledger's settlement rules use them.
export { isCalendarDay, SALES_TIME_ZONE } from '../../core/ledger';
// The list query's rules, which the console's settlement filters are checked by too.
export { ListSettlementsQueryDto } from './dto/list-settlements.query.dto';
// Its response shape, for the OpenAPI documents the docs surface assembles.
export { SETTLEMENT_SCHEMAS } from './settlements.schemas';
