import { escrowAutoConfirmAt } from './escrow-calendar';

describe('escrowAutoConfirmAt', () => {
  it('is 00:00 Asia/Seoul of the n-th business day after the Seoul date of the shipment', () => {
    // Friday 2026-11-27 10:00 in Seoul; 3 business days on: Mon 30, Tue 1, Wed 2.
    const at = escrowAutoConfirmAt(new Date('2026-11-27T01:00:00Z'), 3, new Set());
    expect(at.toISOString()).toBe('2026-12-01T15:00:00.000Z');
  });

  it('takes the Seoul date, not the UTC one, of a shipment late in the UTC day', () => {
    // 2026-11-26 16:00 UTC is Friday 2026-11-27 01:00 in Seoul.
    expect(escrowAutoConfirmAt(new Date('2026-11-26T16:00:00Z'), 1, new Set()).toISOString()).toBe(
      '2026-11-29T15:00:00.000Z',
    );
  });

  it("skips Korean public holidays and the operator's non-banking days", () => {
    // Thursday 2026-12-24: Christmas (Fri 25) is a holiday, the weekend follows, Mon 28 added by the operator.
    const at = escrowAutoConfirmAt(new Date('2026-12-24T03:00:00Z'), 1, new Set(['2026-12-28']));
    expect(at.toISOString()).toBe('2026-12-28T15:00:00.000Z');
  });

  it('is the midnight that began the shipment day when the days are 0', () => {
    expect(escrowAutoConfirmAt(new Date('2026-11-27T01:00:00Z'), 0, new Set()).toISOString()).toBe(
      '2026-11-26T15:00:00.000Z',
    );
  });
});
