import { ESCROW_MOVES, PAYMENT_MOVES, REFUND_MOVES, movableFromSql } from './moves-table';

describe('the table of allowed payment moves', () => {
  it('lets anyone move a pending payment to each outcome, and nothing else move', () => {
    expect(movableFromSql(PAYMENT_MOVES, 'completed', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql(PAYMENT_MOVES, 'failed', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql(PAYMENT_MOVES, 'canceled', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql(PAYMENT_MOVES, 'expired', 'anyone')).toBe(`'pending'`);
  });

  it("lets only the operator's review complete an expired payment", () => {
    expect(movableFromSql(PAYMENT_MOVES, 'completed', 'review')).toBe(`'pending', 'expired'`);
    expect(() => movableFromSql(PAYMENT_MOVES, 'failed', 'review')).toThrow(/no allowed move into failed for review/);
  });

  it('keeps finished payments where they are', () => {
    expect(PAYMENT_MOVES.completed).toEqual({});
    expect(PAYMENT_MOVES.failed).toEqual({});
    expect(PAYMENT_MOVES.canceled).toEqual({});
  });
});

describe('the table of allowed refund moves', () => {
  it('lets the operator settle a pending refund either way, once', () => {
    expect(movableFromSql(REFUND_MOVES, 'succeeded', 'operator')).toBe(`'pending'`);
    expect(movableFromSql(REFUND_MOVES, 'failed', 'operator')).toBe(`'pending'`);
    expect(() => movableFromSql(REFUND_MOVES, 'pending', 'operator')).toThrow(/no allowed move into pending/);
    expect(REFUND_MOVES.succeeded).toEqual({});
    expect(REFUND_MOVES.failed).toEqual({});
  });
});

describe('the table of allowed escrow moves', () => {
  it('lets the merchant ship (and correct) an escrow that is not closed, and no one else ship', () => {
    expect(movableFromSql(ESCROW_MOVES, 'shipped', 'merchant')).toBe(`'awaiting_shipment', 'shipped'`);
    expect(() => movableFromSql(ESCROW_MOVES, 'shipped', 'buyer')).toThrow(/no allowed move into shipped for buyer/);
  });

  it('lets the buyer close a shipped escrow either way, and the clock only confirm it', () => {
    expect(movableFromSql(ESCROW_MOVES, 'confirmed', 'buyer')).toBe(`'shipped'`);
    expect(movableFromSql(ESCROW_MOVES, 'rejected', 'buyer')).toBe(`'shipped'`);
    expect(movableFromSql(ESCROW_MOVES, 'confirmed', 'clock')).toBe(`'shipped'`);
    expect(() => movableFromSql(ESCROW_MOVES, 'rejected', 'clock')).toThrow(/no allowed move into rejected for clock/);
    expect(() => movableFromSql(ESCROW_MOVES, 'confirmed', 'merchant')).toThrow(/for merchant/);
  });

  it('keeps a closed escrow closed', () => {
    expect(ESCROW_MOVES.confirmed).toEqual({});
    expect(ESCROW_MOVES.rejected).toEqual({});
  });
});
