import { EndpointScheduler } from './endpoint-scheduler';

/** A run whose completion the test controls, recording the order jobs started in. */
function controlledRuns() {
  const started: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const run = (job: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(job);
      pending.set(job, { resolve, reject });
    });
  const finish = async (job: string, error?: Error) => {
    const handle = pending.get(job);
    if (!handle) throw new Error(`${job} is not running`);
    pending.delete(job);
    if (error) handle.reject(error);
    else handle.resolve();
    await flush();
  };
  return { started, run, finish };
}

// Lets the scheduler's settle handlers run.
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EndpointScheduler', () => {
  let now: number;
  let deferred: string[];
  const defer = (job: string) => deferred.push(job);

  beforeEach(() => {
    now = 1_000;
    deferred = [];
  });

  const scheduler = (maxInFlightPerEndpoint = 10, maxWaitMs = 250) =>
    new EndpointScheduler<string>({ maxInFlightPerEndpoint, maxWaitMs, now: () => now });

  it('runs at most 10 jobs per endpoint by default and queues the rest', () => {
    const subject = new EndpointScheduler<string>({ now: () => now });
    const { started, run } = controlledRuns();
    for (let i = 0; i < 15; i++) subject.submit('ep_a', `a${i}`, run, defer);
    expect(started).toHaveLength(10);
    expect(subject.inFlight('ep_a')).toBe(10);
    expect(subject.queued('ep_a')).toBe(5);
    expect(subject.totalInFlight()).toBe(10);
    expect(subject.totalQueued()).toBe(5);
  });

  it('starts the queued jobs of an endpoint in FIFO order as slots free up', async () => {
    const subject = scheduler(2);
    const { started, run, finish } = controlledRuns();
    for (const job of ['a1', 'a2', 'a3', 'a4', 'a5']) subject.submit('ep_a', job, run, defer);
    expect(started).toEqual(['a1', 'a2']);

    await finish('a2');
    expect(started).toEqual(['a1', 'a2', 'a3']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'a3', 'a4']);
    await finish('a3');
    expect(started).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(subject.inFlight('ep_a')).toBe(2);
    expect(subject.queued('ep_a')).toBe(0);
  });

  it('keeps endpoints independent', async () => {
    const subject = scheduler(1);
    const { started, run, finish } = controlledRuns();
    subject.submit('ep_slow', 's1', run, defer);
    subject.submit('ep_slow', 's2', run, defer);
    subject.submit('ep_fast', 'f1', run, defer);
    expect(started).toEqual(['s1', 'f1']);

    await finish('f1');
    subject.submit('ep_fast', 'f2', run, defer);
    expect(started).toEqual(['s1', 'f1', 'f2']);
    expect(subject.queued('ep_slow')).toBe(1);
    expect(subject.queued('ep_fast')).toBe(0);
  });

  it('defers jobs that waited longer than maxWaitMs when swept', () => {
    const subject = scheduler(1, 250);
    const { started, run } = controlledRuns();
    subject.submit('ep_a', 'a1', run, defer);
    subject.submit('ep_a', 'a2', run, defer);
    now += 100;
    subject.submit('ep_a', 'a3', run, defer);

    now += 150; // a2 has waited exactly 250 ms: not yet overdue
    subject.sweep();
    expect(deferred).toEqual([]);

    now += 1;
    subject.sweep();
    expect(deferred).toEqual(['a2']);
    expect(subject.queued('ep_a')).toBe(1);

    now += 100;
    subject.sweep();
    expect(deferred).toEqual(['a2', 'a3']);
    expect(subject.totalQueued()).toBe(0);
    expect(started).toEqual(['a1']);
    expect(subject.inFlight('ep_a')).toBe(1);
  });

  it('sweeps when a job is submitted, for every endpoint', () => {
    const subject = scheduler(1, 250);
    const { run } = controlledRuns();
    subject.submit('ep_a', 'a1', run, defer);
    subject.submit('ep_a', 'a2', run, defer);
    now += 300;
    subject.submit('ep_b', 'b1', run, defer);
    expect(deferred).toEqual(['a2']);
  });

  it('hands every queued job to defer on deferAllQueued, leaving running jobs alone', () => {
    const subject = scheduler(1);
    const { run } = controlledRuns();
    for (const job of ['a1', 'a2', 'a3']) subject.submit('ep_a', job, run, defer);
    subject.submit('ep_b', 'b1', run, defer);
    subject.submit('ep_b', 'b2', run, defer);
    subject.deferAllQueued();
    expect(deferred).toEqual(['a2', 'a3', 'b2']);
    expect(subject.totalQueued()).toBe(0);
    expect(subject.totalInFlight()).toBe(2);
  });

  it('goes on with the next job when a run rejects or throws', async () => {
    const subject = scheduler(1);
    const { started, run, finish } = controlledRuns();
    const throwing = (job: string) => {
      started.push(job);
      throw new Error('sync failure');
    };
    subject.submit('ep_a', 'a1', run, defer);
    subject.submit('ep_a', 'a2', throwing, defer);
    subject.submit('ep_a', 'a3', run, defer);

    await finish('a1', new Error('endpoint exploded'));
    expect(started).toEqual(['a1', 'a2', 'a3']);
    expect(subject.inFlight('ep_a')).toBe(1);
    await finish('a3');
    expect(subject.totalInFlight()).toBe(0);
  });

  it('drain resolves at once when idle, and once every running and queued job has finished', async () => {
    const subject = scheduler(1);
    await expect(subject.drain()).resolves.toBeUndefined();

    const { run, finish } = controlledRuns();
    subject.submit('ep_a', 'a1', run, defer);
    subject.submit('ep_a', 'a2', run, defer);
    subject.submit('ep_b', 'b1', run, defer);
    let drained = false;
    const drain = subject.drain().then(() => {
      drained = true;
    });

    await finish('a1');
    await finish('b1');
    expect(drained).toBe(false); // a2 took a1's slot
    await finish('a2');
    await drain;
    expect(drained).toBe(true);
    expect(subject.totalInFlight()).toBe(0);
    expect(subject.totalQueued()).toBe(0);
  });
});
