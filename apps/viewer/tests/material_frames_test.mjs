// The viewer's material frames (src/material_frames.js) with checkpoints stored ahead of time
// (advance(), run in idle time) against the same frames computed without them, on a made-up rod:
//  - every checkpoint below the run's end gets stored, also when advance() is cut short, a frame is
//    shown meanwhile, and it resumes;
//  - d1 at any frame is the same number for number (the same transports from the same frame 0),
//    whether frames are visited in order, backwards, after an interrupted advance, or fresh;
//  - d1 is a unit vector normal to its edge (the check is not vacuous: the rod bends and twists).
// Usage: node material_frames_test.mjs
import { strict as assert } from 'node:assert';
import { MaterialFrames } from '../src/material_frames.js';

// a rod of N nodes in a travelling wave over F frames, with a twist that changes in time
const F = 70, N = 30, E = N - 1;
const positions = new Float64Array(F * N * 3), twists = new Float64Array(F * E);
for (let f = 0; f < F; ++f) {
  for (let i = 0; i < N; ++i) {
    const s = i / (N - 1), o = (f * N + i) * 3;
    positions[o] = s; positions[o + 1] = 0.2 * Math.sin(6 * s - 0.3 * f); positions[o + 2] = 0.15 * Math.cos(4 * s - 0.2 * f);
  }
  for (let e = 0; e < E; ++e) twists[f * E + e] = 0.4 * Math.sin(e / 5 + 0.1 * f);
}
const edges = Int32Array.from({ length: 2 * E }, (_, k) => (k >> 1) + (k & 1));
const run = { positions, twists, edges, numNodes: N, chains: [Array.from({ length: N }, (_, i) => i)] };

const reference = (f) => Float32Array.from(new MaterialFrames(run).at(f));  // fresh: from frame 0

// cut short after 20 steps, a frame before the last checkpoint shown, then resumed (from the last
// checkpoint): all checkpoints (every 16th frame) stored
const ahead = new MaterialFrames(run);
let budget = 20;
assert.equal(ahead.advance(F, () => budget-- > 0), false);
assert.deepEqual(Array.from(ahead.at(3)), Array.from(reference(3)));
assert.equal(ahead.advance(F, () => true), true);
assert.equal(ahead.checkpoints.filter(Boolean).length, Math.floor((F - 1) / 16) + 1);

let bends = 0;
for (const f of [F - 1, 3, 40, 39, 17, 0, 64, 16, 15, F - 1]) {
  const d1 = ahead.at(f), want = reference(f);
  assert.deepEqual(Array.from(d1), Array.from(want), `frame ${f}`);
  for (let e = 0; e < E; ++e) {
    const i = (f * N + e) * 3, j = i + 3;
    const t = [0, 1, 2].map((c) => positions[j + c] - positions[i + c]);
    const l = Math.hypot(...t);
    const d = [0, 1, 2].map((c) => d1[3 * e + c]);
    assert.ok(Math.abs(Math.hypot(...d) - 1) < 1e-6 && Math.abs(d[0] * t[0] + d[1] * t[1] + d[2] * t[2]) / l < 1e-6,
              `frame ${f} edge ${e}: d1 not a unit normal`);
    if (Math.abs(d[0]) > 0.1) ++bends;  // d1 leaves the plane normal to x: the frame turns with the rod
  }
}
assert.ok(bends > 0, 'the material frames never turned');
console.log(`material frames with ${ahead.checkpoints.length} checkpoints stored ahead match the fresh ones`);
