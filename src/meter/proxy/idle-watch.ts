/**
 * Calls `onIdle` once when `touch` has not been called for `ms` milliseconds. `hold` suspends
 * the watch while the silence is not the upstream's fault (the client is slow to read);
 * `release` resumes it with a fresh period. `touch` is cheap (`Timeout.refresh`), so it can
 * run on every chunk.
 */
export class IdleWatch {
  private readonly timer: NodeJS.Timeout;
  private held = false;
  private stopped = false;

  constructor(ms: number, onIdle: () => void) {
    this.timer = setTimeout(() => {
      if (this.held) this.timer.refresh();
      else if (!this.stopped) onIdle();
    }, ms);
  }

  touch(): void {
    if (!this.stopped) this.timer.refresh();
  }

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    this.touch();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
