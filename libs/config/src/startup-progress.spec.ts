import { StartupProgress } from './startup-progress';

describe('StartupProgress', () => {
  let lines: string[];

  beforeEach(() => {
    jest.useFakeTimers();
    lines = [];
    jest.spyOn(console, 'warn').mockImplementation((line: string) => void lines.push(line));
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('says where a start is every 30 s until it has finished, and nothing after', () => {
    const progress = new StartupProgress();
    const finished = progress.reportSlowStart('payhook-payments-api');
    progress.set('connecting to PostgreSQL');
    jest.advanceTimersByTime(29_999);
    expect(lines).toEqual([]);

    jest.advanceTimersByTime(1);
    progress.set('running migrations');
    jest.advanceTimersByTime(30_000);
    finished();
    jest.advanceTimersByTime(90_000);

    expect(lines).toEqual([
      'payhook-payments-api: start not finished after 30 s: connecting to PostgreSQL',
      'payhook-payments-api: start not finished after 60 s: running migrations',
    ]);
  });

  it('prints a phase that waits on another process at once, and reports it as the current one', () => {
    const progress = new StartupProgress();
    progress.reportSlowStart('payhook-payments-api');
    progress.announce('payhook-payments-api', 'waiting for migrations run by payhook-webhook-dispatcher (pid 7)');
    expect(lines).toEqual(['payhook-payments-api: waiting for migrations run by payhook-webhook-dispatcher (pid 7)']);

    jest.advanceTimersByTime(30_000);
    expect(lines[1]).toBe(
      'payhook-payments-api: start not finished after 30 s: waiting for migrations run by payhook-webhook-dispatcher (pid 7)',
    );
  });

  it('never keeps the process alive', () => {
    const setInterval = jest.spyOn(global, 'setInterval');
    new StartupProgress().reportSlowStart('payhook');
    const timer = setInterval.mock.results[0].value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
  });
});
