// The CPU each process of a run used, and how busy the whole machine was, from Linux's /proc: what
// shows whether a row is held back by one process's thread or by the machine itself (two dispatchers
// on a 2-core machine, docs/performance.md). Elsewhere (no /proc) it measures nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on
const hasProc = existsSync('/proc/stat');

/** utime + stime of a process, in clock ticks; 0 once it is gone. */
function processTicks(pid) {
  try {
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The pids of the processes named `name` (pgrep -x: postgres, beam.smp), none when there is none. */
export function pidsNamed(name) {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return [];
  }
}

/** Busy and total ticks of all CPUs (the first line of /proc/stat; idle and iowait count as not busy). */
function machineTicks() {
  const counters = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = counters.reduce((sum, n) => sum + n, 0);
  return { busy: total - counters[3] - counters[4], total };
}

/**
 * Starts measuring `groups` ({ name: () => pids }, read at start and again at the end so processes
 * started meanwhile count). `stop(units)` gives each group's CPU per unit of work in microseconds and
 * the machine's busy share in percent; undefined without /proc.
 */
export function cpuMeter(groups) {
  if (!hasProc) return { stop: () => undefined };
  const ticksByPid = (pids) => new Map(pids.map((pid) => [pid, processTicks(pid)]));
  const start = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, ticksByPid(pids())]));
  const machineStart = machineTicks();
  return {
    stop(units) {
      const machineEnd = machineTicks();
      const perUnit = Object.fromEntries(
        Object.entries(groups).map(([name, pids]) => {
          // A process started meanwhile counts whole; one gone by now (a closed connection's backend)
          // counts nothing more than it had at the start.
          let ticks = 0;
          for (const [pid, now] of ticksByPid(pids())) ticks += Math.max(0, now - (start[name].get(pid) ?? 0));
          return [name, (ticks / CLOCK_TICKS_PER_SECOND / units) * 1e6];
        }),
      );
      const busyPercent =
        (100 * (machineEnd.busy - machineStart.busy)) / Math.max(1, machineEnd.total - machineStart.total);
      return { ...perUnit, busyPercent };
    },
  };
}
