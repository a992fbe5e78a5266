import { ALLOWED_MOVES, movableFromSql } from './payment-moves-table';

describe('the table of allowed payment moves', () => {
  it('lets anyone move a pending payment to each outcome, and nothing else move', () => {
    expect(movableFromSql('completed', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql('failed', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql('canceled', 'anyone')).toBe(`'pending'`);
    expect(movableFromSql('expired', 'anyone')).toBe(`'pending'`);
  });

  it("lets only the operator's review complete an expired payment", () => {
    expect(movableFromSql('completed', 'review')).toBe(`'pending', 'expired'`);
    expect(() => movableFromSql('failed', 'review')).toThrow(/no allowed move into failed for review/);
  });

  it('keeps finished payments where they are', () => {
    expect(ALLOWED_MOVES.completed).toEqual({});
    expect(ALLOWED_MOVES.failed).toEqual({});
    expect(ALLOWED_MOVES.canceled).toEqual({});
  });
});
