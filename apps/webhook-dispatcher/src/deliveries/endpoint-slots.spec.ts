import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('gives each endpoint its own slots, and refuses past the limit without waiting', () => {
    const slots = new EndpointSlots(2);
    expect(slots.tryTake('a')).not.toBeNull();
    expect(slots.tryTake('a')).not.toBeNull();
    expect(slots.tryTake('a')).toBeNull();
    expect(slots.tryTake('b')).not.toBeNull();
    expect(slots.free('a')).toBe(0);
    expect(slots.free('b')).toBe(1);
  });

  it('frees a slot on release, once however often it is released', () => {
    const slots = new EndpointSlots(2);
    const first = slots.tryTake('a')!;
    slots.tryTake('a');
    first.release();
    first.release();
    expect(slots.free('a')).toBe(1);
    expect(slots.tryTake('a')).not.toBeNull();
    expect(slots.tryTake('a')).toBeNull();
  });

  it('lets a redelivery run past the limit, and counts it', () => {
    const slots = new EndpointSlots(1);
    const automatic = slots.tryTake('a')!;
    const manual = slots.takeAnyway('a');
    expect(slots.free('a')).toBe(0);
    automatic.release();
    expect(slots.free('a')).toBe(0);
    manual.release();
    expect(slots.free('a')).toBe(1);
  });

  it("tells each take its endpoint's slots then in use, a redelivery's past the limit too", () => {
    const told: number[] = [];
    const slots = new EndpointSlots(2, (inUse) => told.push(inUse));
    const first = slots.tryTake('a')!;
    slots.tryTake('a');
    expect(slots.tryTake('a')).toBeNull(); // refused: nothing taken, nothing told
    const redelivery = slots.takeAnyway('a');
    slots.tryTake('b');
    first.release();
    redelivery.release();
    slots.tryTake('a');
    expect(told).toEqual([1, 2, 3, 1, 2]);
  });

  it('rejects a limit that is not a whole number from 1', () => {
    expect(() => new EndpointSlots(0)).toThrow(RangeError);
    expect(() => new EndpointSlots(1.5)).toThrow(RangeError);
  });
});
