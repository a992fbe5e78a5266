import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('gives each endpoint its own slots, and refuses past the limit without waiting', () => {
    const slots = new EndpointSlots(2);
    expect(slots.tryTake('a')).toBe(true);
    expect(slots.tryTake('a')).toBe(true);
    expect(slots.tryTake('a')).toBe(false);
    expect(slots.tryTake('b')).toBe(true);
    expect(slots.free('a')).toBe(0);
    expect(slots.free('b')).toBe(1);
    expect(slots.totalInUse()).toBe(3);
  });

  it('frees a slot on release', () => {
    const slots = new EndpointSlots(1);
    expect(slots.tryTake('a')).toBe(true);
    slots.release('a');
    expect(slots.free('a')).toBe(1);
    expect(slots.tryTake('a')).toBe(true);
  });

  it('lets a redelivery run past the limit, and counts it', () => {
    const slots = new EndpointSlots(1);
    expect(slots.tryTake('a')).toBe(true);
    slots.takeAnyway('a');
    expect(slots.totalInUse()).toBe(2);
    expect(slots.free('a')).toBe(0);
    slots.release('a');
    expect(slots.free('a')).toBe(0);
    slots.release('a');
    expect(slots.free('a')).toBe(1);
  });

  it('refuses a release of a slot that was never taken', () => {
    expect(() => new EndpointSlots(1).release('a')).toThrow('no slot of a is taken');
  });

  it('resolves whenIdle once the last slot is released', async () => {
    const slots = new EndpointSlots(3);
    slots.tryTake('a');
    slots.tryTake('b');
    let idle = false;
    const waiting = slots.whenIdle().then(() => (idle = true));
    slots.release('a');
    await Promise.resolve();
    expect(idle).toBe(false);
    slots.release('b');
    await waiting;
    expect(idle).toBe(true);
  });

  it('rejects a limit that is not a whole number from 1', () => {
    expect(() => new EndpointSlots(0)).toThrow(RangeError);
    expect(() => new EndpointSlots(1.5)).toThrow(RangeError);
  });
});
