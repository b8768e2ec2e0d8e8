// The ground grid's spacing (src/ground_grid.js gridSpacing) over lengths from 1 um to 1 km,
// against the round spacings listed here:
//  - it is a round spacing (1, 2 or 5 x 10^k m) giving at least 8 cells over the length, and the
//    next larger round spacing gives fewer (the largest such);
//  - a length that is zero, negative, infinite or NaN (the extent of an empty or NaN box) is a
//    RangeError naming the value, never an undefined spacing.
// Usage: node ground_grid_test.mjs
import { strict as assert } from 'node:assert';
import { gridSpacing } from '../src/ground_grid.js';

// the round spacings 1, 2, 5 x 10^k for k = -9 ... 4, increasing
const round = [];
for (let k = -9; k <= 4; ++k) for (const m of [1, 2, 5]) round.push(Number(`${m}e${k}`));

let checked = 0;
for (let e = -6; e <= 3; e += 0.01) {
  const length = 10 ** e, s = gridSpacing(length);
  const at = round.findIndex((r) => Math.abs(r - s) <= 1e-12 * r);
  assert.ok(at >= 0, `length ${length} m: spacing ${s} is not round`);
  assert.ok(8 * s <= length * (1 + 1e-9), `length ${length} m: spacing ${s} gives fewer than 8 cells`);
  assert.ok(8 * round[at + 1] > length, `length ${length} m: ${round[at + 1]} m also gives 8 cells, not ${s}`);
  ++checked;
}
console.log(`gridSpacing: the largest round spacing with 8 cells for ${checked} lengths from 1e-6 to 1e3 m`);

for (const bad of [0, -1, Infinity, NaN])
  assert.throws(() => gridSpacing(bad), (e) => e instanceof RangeError && e.message.includes(String(bad)), `length ${bad}`);
console.log('gridSpacing: zero, negative, infinite and NaN lengths are RangeErrors naming the value');
