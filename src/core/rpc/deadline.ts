/**
 * One time limit for a whole operation: every request, retry wait (Retry-After included) and
 * page of it draws on the same budget, so `--timeout 2000` ends the command within about 2 s
 * however many requests it makes.
 */
export class Deadline {
  private readonly endsAt: number;

  /**
   * `totalMs` from now. `shared`: the budget of a whole operation (a command), so its end means
   * nothing more can succeed; false for the budget of one call and its retries.
   */
  constructor(
    readonly totalMs: number,
    readonly shared = true,
  ) {
    this.endsAt = performance.now() + totalMs;
  }

  /** Milliseconds left, never negative. */
  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** The limit of one request: its own timeout, cut to what is left of the deadline. */
  limit(timeoutMs: number): number {
    return Math.min(timeoutMs, Math.ceil(this.remainingMs()));
  }
}

/** The longest timeout the CLI and the settings accept: 24 hours. */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** Default cap of a reply body or WebSocket message, in MiB. */
export const DEFAULT_MAX_RESPONSE_MB = 64;

let maxResponseBytes = DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;

/** The cap every reply body and WebSocket message is held to, in bytes. */
export function responseLimit(): number {
  return maxResponseBytes;
}

/**
 * Sets the cap (the editor from its setting, the CLI from its environment). Returns an error
 * text when `mb` is not a whole number from 1 to 4096, and keeps the previous cap then.
 */
export function setResponseLimitMB(mb: number): string | undefined {
  if (!Number.isInteger(mb) || mb < 1 || mb > 4096) return `the response cap is a whole number of MiB from 1 to 4096, not ${JSON.stringify(mb)}`;
  maxResponseBytes = mb * 1024 * 1024;
  return undefined;
}
