import { EndpointSlots, type SlotWaitPolicy } from './endpoint-slots';

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

  it('names the endpoints with no free slot', () => {
    const slots = new EndpointSlots(1);
    slots.tryTake('a');
    const b = slots.tryTake('b')!;
    expect(slots.busy().sort()).toEqual(['a', 'b']);
    b.release();
    expect(slots.busy()).toEqual(['a']);
  });

  it('tells once when a slot of a busy endpoint comes free, and at once when one is free', () => {
    const slots = new EndpointSlots(1);
    const told: string[] = [];
    slots.whenFree('a', () => told.push('a free now'));
    const running = slots.tryTake('a')!;
    slots.whenFree('a', () => told.push('a freed'));
    expect(told).toEqual(['a free now']);
    running.release();
    slots.tryTake('a')!.release();
    expect(told).toEqual(['a free now', 'a freed']);
  });

  it('rejects a limit that is not a whole number from 1', () => {
    expect(() => new EndpointSlots(0)).toThrow(RangeError);
    expect(() => new EndpointSlots(1.5)).toThrow(RangeError);
  });

  describe('waiting for a slot of an endpoint that answers fast', () => {
    const policy: SlotWaitPolicy = { maxWaitMs: 50, fastMs: 50, maxWaiting: 2 };
    let clock = 0;
    const slotsOf = (perEndpoint: number, wait = policy) =>
      new EndpointSlots(perEndpoint, undefined, wait, () => clock);
    /** Resolves what a promise has settled to by now, or 'pending'. */
    const settled = async <T>(promise: Promise<T>): Promise<T | 'pending'> =>
      Promise.race([promise, Promise.resolve('pending' as const)]);

    beforeEach(() => {
      clock = 0;
      jest.useFakeTimers();
    });
    afterEach(() => jest.useRealTimers());

    it('takes a free slot at once', async () => {
      const slots = slotsOf(1);
      expect(await slots.takeWaiting('a')).not.toBeNull();
      expect(slots.free('a')).toBe(0);
    });

    it('hands a released slot to the first waiter, then the next, and the slot count stays at the limit', async () => {
      const slots = slotsOf(1);
      const running = (await slots.takeWaiting('a'))!;
      const first = slots.takeWaiting('a');
      const second = slots.takeWaiting('a');
      expect(await settled(first)).toBe('pending');
      running.release();
      const handed = await first;
      expect(handed).not.toBeNull();
      expect(await settled(second)).toBe('pending');
      expect(slots.free('a')).toBe(0);
      handed!.release();
      expect(await second).not.toBeNull();
      expect(slots.tryTake('a')).toBeNull();
    });

    it('gives up after maxWaitMs, leaving the slot to whoever asks once it is free', async () => {
      const slots = slotsOf(1);
      const running = (await slots.takeWaiting('a'))!;
      const waiting = slots.takeWaiting('a');
      jest.advanceTimersByTime(49);
      expect(await settled(waiting)).toBe('pending');
      jest.advanceTimersByTime(1);
      expect(await waiting).toBeNull();
      running.release();
      expect(slots.free('a')).toBe(1);
      expect(await slots.takeWaiting('a')).not.toBeNull();
    });

    it('does not wait while a request in flight is older than fastMs (an endpoint that hangs)', async () => {
      const slots = slotsOf(2);
      slots.tryTake('a');
      clock = 30;
      slots.tryTake('a');
      clock = 60; // the first request has run 60 ms
      expect(await slots.takeWaiting('a')).toBeNull();
    });

    it('bounds the waiting across endpoints, and has room again once waiters give up', async () => {
      const slots = slotsOf(1);
      slots.tryTake('a');
      slots.tryTake('b');
      const forA = slots.takeWaiting('a');
      const forB = slots.takeWaiting('b');
      expect(await slots.takeWaiting('a')).toBeNull(); // over maxWaiting, all endpoints together
      expect(await settled(forA)).toBe('pending');
      jest.advanceTimersByTime(50);
      expect(await Promise.all([forA, forB])).toEqual([null, null]);
      expect(await settled(slots.takeWaiting('a'))).toBe('pending');
    });

    it('hands no slot over the limit when a redelivery went past it', async () => {
      const slots = slotsOf(1);
      const automatic = slots.tryTake('a')!;
      const redelivery = slots.takeAnyway('a');
      const waiting = slots.takeWaiting('a');
      automatic.release(); // one still in flight: the redelivery, at the limit
      expect(await settled(waiting)).toBe('pending');
      redelivery.release();
      expect(await waiting).not.toBeNull();
    });

    it('tells of a freed slot only when no waiting message takes it', async () => {
      const slots = slotsOf(1);
      const running = (await slots.takeWaiting('a'))!;
      const told: number[] = [];
      slots.whenFree('a', () => told.push(slots.free('a')));
      const waiting = slots.takeWaiting('a');
      running.release(); // handed to the waiting message
      expect(told).toEqual([]);
      (await waiting)!.release();
      expect(told).toEqual([1]);
    });

    it('never waits without a policy', async () => {
      const slots = new EndpointSlots(1);
      slots.tryTake('a');
      expect(await slots.takeWaiting('a')).toBeNull();
    });
  });
});
