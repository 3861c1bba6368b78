/** What runs on this machine, from /proc: the tests of the local graph-node check that nothing of theirs is left. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Pids of every process (but this one) whose command line names `text`, e.g. a data folder. */
export function processesUsing(text: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Kills (SIGKILL) every process whose command line names `text`: the last resort of a test's cleanup. */
export function killProcessesUsing(text: string): void {
  for (const pid of processesUsing(text)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Pids of every process (but this one) whose working folder is `dir` or inside it. */
export function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        const cwd = readlinkSync(`/proc/${p}/cwd`);
        return cwd === dir || cwd.startsWith(`${dir}/`);
      } catch {
        return false;
      }
    })
    .map(Number);
}
