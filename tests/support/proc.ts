import { readdirSync, readFileSync } from 'node:fs';

/** The processes `pid` started that are still running and whose command line contains `match`. */
export function childProcesses(pid: number, match: string): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(match);
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** A process's resident-memory high-water mark (VmHWM) in MB, or undefined once it has ended. */
export function peakRssMb(pid: number): number | undefined {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return undefined;
  }
}
