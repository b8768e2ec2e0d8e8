// The playing resolution's controller (src/adaptive_resolution.js) on frame intervals made up here:
//  - the display's pace is the median of the paused frame intervals;
//  - frames slower than the display bring the scale down step by step to MIN_SCALE and no lower;
//  - frames at the display's pace bring it back up to 1 and no higher;
//  - when only coarse scales keep up, the scale settles at the finest of them instead of
//    oscillating (a finer scale that proved too slow is not tried again in the same playback),
//    and a new playback tries finer scales again.
// Usage: node adaptive_resolution_test.mjs
import { strict as assert } from 'node:assert';
import { AdaptiveResolution, MIN_SCALE } from '../src/adaptive_resolution.js';

const DISPLAY = 1000 / 60;

// plays `frames` frames whose interval [ms] depends on the scale; returns the scales in order
function play(r, frames, interval) {
  const scales = [];
  for (let k = 0; k < frames; ++k) if (r.playingFrame(interval(r.scale))) scales.push(r.scale);
  return scales;
}

const r = new AdaptiveResolution();
for (let k = 0; k < 40; ++k) r.idleFrame(k % 10 === 0 ? 70 : DISPLAY);  // a few long frames do not count
assert.ok(Math.abs(r.display - DISPLAY) < 1e-9, `display interval ${r.display}`);

r.start();
const down = play(r, 200, () => 2.5 * DISPLAY);
assert.ok(down.length >= 2 && down.every((s, k) => s < (k ? down[k - 1] : 1)), `not going down step by step: ${down}`);
assert.equal(r.scale, MIN_SCALE);

const up = play(r, 300, () => DISPLAY);
assert.ok(up.every((s, k) => s > (k ? up[k - 1] : MIN_SCALE)), `not going up step by step: ${up}`);
assert.equal(r.scale, 1);

// only scales up to 0.7 keep up: the scale settles below 0.7 and stays
r.start();
const threshold = (s) => (s <= 0.7 ? DISPLAY : 2 * DISPLAY);
play(r, 300, threshold);
const settled = r.scale;
assert.ok(settled <= 0.7 && settled / 0.8 > 0.7, `settled at ${settled}`);
assert.deepEqual(play(r, 600, threshold), [], 'the scale kept changing');

// a new playback, now with a faster machine: finer scales again
r.start();
play(r, 300, () => DISPLAY);
assert.equal(r.scale, 1);
console.log(`scales down ${down.map((s) => s.toFixed(3))}; up ${up.map((s) => s.toFixed(3))}; settled at ${settled.toFixed(3)}`);
