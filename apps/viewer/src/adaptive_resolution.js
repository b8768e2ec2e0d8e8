// Resolution of the frames drawn while playing, adapted to keep up with the display. Paused, the
// page counts the display's frame interval (requestAnimationFrame with nothing to draw); playing,
// the median of every WINDOW frame intervals decides: slower than SLOW x the display's interval
// scales the canvas's resolution down by STEP (not below MIN_SCALE), as fast as FAST x the
// display's interval tries a finer one (not above 1, nor above a scale that was too slow earlier in
// the same playback). A still view is always drawn at full resolution (panel.js).

const WINDOW = 15;      // frames per decision
const SLOW = 1.2, FAST = 1.08;
const STEP = 0.8;
export const MIN_SCALE = 0.4;

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

export class AdaptiveResolution {
  constructor() {
    this.scale = 1;         // of the still view's resolution, for frames drawn while playing
    this.ceiling = 1;       // finest scale allowed in this playback
    this.raised = false;    // the last decision tried a finer scale
    this.idle = [];         // recent frame intervals while paused [ms]
    this.display = 1000 / 60;  // the display's frame interval [ms]
    this.intervals = [];
    this.fixed = null;      // a scale that playback keeps (measurements), or null: adapt
  }

  /** A frame interval [ms] paused with nothing drawn: the display's pace. */
  idleFrame(ms) {
    this.idle.push(ms);
    if (this.idle.length > 2 * WINDOW) this.idle.shift();
    if (this.idle.length >= WINDOW) this.display = median(this.idle);
  }

  /** Playback starts (at the scale the last one ended with). */
  start() {
    if (this.fixed !== null) this.scale = this.fixed;
    this.ceiling = 1;
    this.raised = false;
    this.intervals.length = 0;
  }

  /** A frame interval [ms] while playing; returns whether the scale changed. */
  playingFrame(ms) {
    if (this.fixed !== null) return false;
    this.intervals.push(ms);
    if (this.intervals.length < WINDOW) return false;
    const m = median(this.intervals);
    this.intervals.length = 0;
    if (m > SLOW * this.display && this.scale > MIN_SCALE) {
      if (this.raised) this.ceiling = this.scale * STEP;  // the finer scale just tried was too slow
      this.scale = Math.max(this.scale * STEP, MIN_SCALE);
      this.raised = false;
      return true;
    }
    if (m <= FAST * this.display && this.scale < this.ceiling) {
      this.scale = Math.min(this.scale / STEP, this.ceiling);
      this.raised = true;
      return true;
    }
    this.raised = false;
    return false;
  }
}
