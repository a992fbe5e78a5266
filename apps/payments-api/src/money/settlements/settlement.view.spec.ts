import { SETTLEMENT_CSV_HEADER, settlementCsvLines, type SettlementView } from './settlement.view';

const settlementsCsv = (rows: SettlementView[]) => SETTLEMENT_CSV_HEADER + settlementCsvLines(rows);

const row: SettlementView = {
  type: 'payment',
  paymentId: 'pay_AAAAAAAAAAAAAAAAAAAAAAAA',
  refundId: null,
  orderId: 'order-1',
  livemode: true,
  currency: 'KRW',
  grossAmount: 15_000,
  feeBps: 250,
  feeAmount: 375,
  vatAmount: 37,
  netAmount: 14_588,
  salesDate: '2026-11-21',
  payoutStatus: 'scheduled',
  payoutDate: '2026-11-24',
  payoutRule: 'kr_public_holidays',
  completedAt: '2026-11-21T05:06:07.890Z',
};

describe('settlementsCsv', () => {
  it('writes a header and one CRLF line per record', () => {
    expect(settlementsCsv([row])).toBe(
      'payment_id,order_id,sales_date,payout_date,completed_at,currency,gross_amount,fee_bps,fee_amount,vat_amount,net_amount,type,refund_id,payout_status\r\n' +
        'pay_AAAAAAAAAAAAAAAAAAAAAAAA,order-1,2026-11-21,2026-11-24,2026-11-21T05:06:07.890Z,KRW,15000,250,375,37,14588,payment,,scheduled\r\n',
    );
  });

  it('writes a held record with no payout date and payout_status held', () => {
    const held: SettlementView = { ...row, payoutStatus: 'held', payoutDate: null, payoutRule: null };
    expect(settlementsCsv([held]).split('\r\n')[1]).toBe(
      'pay_AAAAAAAAAAAAAAAAAAAAAAAA,order-1,2026-11-21,,2026-11-21T05:06:07.890Z,KRW,15000,250,375,37,14588,payment,,held',
    );
  });

  it('writes a refund record with its negative amounts, type and refund id at the end', () => {
    const refund: SettlementView = {
      ...row,
      type: 'refund',
      refundId: 'rfd_AAAAAAAAAAAAAAAAAAAAAAAA',
      grossAmount: -5_000,
      feeAmount: -125,
      vatAmount: -13,
      netAmount: -4_862,
    };
    expect(settlementCsvLines([refund])).toBe(
      'pay_AAAAAAAAAAAAAAAAAAAAAAAA,order-1,2026-11-21,2026-11-24,2026-11-21T05:06:07.890Z,KRW,-5000,250,-125,-13,-4862,refund,rfd_AAAAAAAAAAAAAAAAAAAAAAAA,scheduled\r\n',
    );
  });

  it('keeps merchant text from becoming a spreadsheet formula', () => {
    const [, line] = settlementsCsv([{ ...row, orderId: '=HYPERLINK("x")' }]).split('\r\n');
    expect(line.split(',')[1]).toBe(`"'=HYPERLINK(""x"")"`);
  });
});
