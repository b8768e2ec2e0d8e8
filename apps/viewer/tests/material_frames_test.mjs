// The viewer's material frames (src/material_frames.js):
//  - against the simulator's own frames, read from a run folder it wrote with every step saved
//    (`restart_state` holds the reference directors it transported; d1 = cos(theta) a1 +
//    sin(theta) t x a1 with its twists): equal to round-off on a helix sagging under gravity;
//  - with checkpoints stored ahead of time (advance(), run in idle time) against the same frames
//    computed without them, on a made-up rod: every checkpoint below the run's end gets stored,
//    also when advance() is cut short, a frame is shown meanwhile, and it resumes; d1 at any frame
//    is the same number for number whether frames are visited in order, backwards, after an
//    interrupted advance, or fresh; d1 is a unit vector normal to its edge (the check is not
//    vacuous: the rod bends and twists).
// Usage: node material_frames_test.mjs RUN (a rod run saving every step, e.g. helix_gravity with
// output.every_steps=1)
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MaterialFrames } from '../src/material_frames.js';
import { parseNpy } from '../src/npy.js';

// the simulator's d1 at every saved frame of a single-rod run against the viewer's
function compareWithSimulator(dir) {
  const load = (name) => {
    const bytes = readFileSync(join(dir, `${name}.npy`));
    return parseNpy(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), name);
  };
  const meta = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')), info = meta.info;
  const positions = load('positions'), twists = load('twists'), restart = load('restart_state');
  const [F, N] = positions.shape, E = info.num_edges;
  const simRun = { positions: positions.data, twists: twists.data, edges: Int32Array.from(info.edges.flat()),
                   numNodes: N, chains: info.rod_nodes,
                   directorHints: info.rod_nodes.map((_, r) => meta.scene?.rods?.[r]?.m1 ?? null) };
  // restart_state layout (docs/output_format.md): steps, work, has_forces, u (D), forces (D),
  // tangents (3 E), reference directors (3 E), ...; D = 3 N + E for rods alone
  const K = restart.shape[1], D = 3 * N + E, tangentsAt = 3 + 2 * D, directorsAt = tangentsAt + 3 * E;
  assert.equal(info.rod_nodes.length, 1, 'a single rod');
  const frames = new MaterialFrames(simRun);
  let worst = 0, turned = 0;
  for (let f = 0; f < F; ++f) {
    const d1 = frames.at(f);
    for (let e = 0; e < E; ++e) {
      const t = restart.data.subarray(f * K + tangentsAt + 3 * e, f * K + tangentsAt + 3 * e + 3);
      const a = restart.data.subarray(f * K + directorsAt + 3 * e, f * K + directorsAt + 3 * e + 3);
      const th = twists.data[f * E + e], c = Math.cos(th), s = Math.sin(th);
      const b = [t[1] * a[2] - t[2] * a[1], t[2] * a[0] - t[0] * a[2], t[0] * a[1] - t[1] * a[0]];
      for (let k = 0; k < 3; ++k) worst = Math.max(worst, Math.abs(d1[3 * e + k] - (c * a[k] + s * b[k])));
      if (f === F - 1) turned = Math.max(turned, Math.hypot(...[0, 1, 2].map((k) => a[k] - restart.data[directorsAt + 3 * e + k])));
    }
  }
  // float32 d1: round-off 6e-8; the simulator transported its frames over 2 % of a turn or more
  assert.ok(turned > 0.02, `the simulator's reference frames hardly moved (${turned})`);
  assert.ok(worst < 1e-6, `the viewer's d1 differs from the simulator's by ${worst}`);
  console.log(`viewer d1 = the simulator's to ${worst.toExponential(2)} over ${F} frames, ${E} edges (frames turned up to ${turned.toFixed(3)})`);
}
compareWithSimulator(process.argv[2]);

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
