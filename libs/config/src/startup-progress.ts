/** How long a start may take before it says what it is waiting for. */
export const SLOW_START_REPORT_MS = 30_000;

/**
 * What a starting process is doing now. Nest buffers its log lines until the app is created
 * (`bufferLogs`), and the database is migrated inside that: a start stuck there would print
 * nothing. So each step of a start names itself here, a step that waits on another process says
 * so at once, and a start that takes too long prints where it is (`reportSlowStart` in main.ts).
 * These lines go straight to stderr, like the other start-up notices.
 */
export class StartupProgress {
  private current = 'starting';

  get phase(): string {
    return this.current;
  }

  set(phase: string): void {
    this.current = phase;
  }

  /** Sets a phase that may last, because another process holds it up, and prints it at once. */
  announce(process: string, phase: string): void {
    this.current = phase;
    console.warn(`${process}: ${phase}`);
  }

  /**
   * Prints `<process>: start not finished after N s: <phase>` every `everyMs` until the returned
   * function is called (once the app listens). The timer never keeps the process alive.
   */
  reportSlowStart(process: string, everyMs = SLOW_START_REPORT_MS): () => void {
    let reports = 0;
    const timer = setInterval(() => {
      reports += 1;
      console.warn(`${process}: start not finished after ${(reports * everyMs) / 1000} s: ${this.current}`);
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** The one progress of this process: the data-source code and main.ts both set it. */
export const startupProgress = new StartupProgress();
