// Material director d1 of every edge at a saved frame, for the twist stripe on the tubes.
// Runs do not record the simulator's reference frames, so they are rebuilt here the way the
// simulator builds them (src/tendril/geometry/kinematics.cpp): at frame 0, a1 of each rod's first
// edge is the rod's `m1` (default +z) made normal to the edge, space-parallel transported along
// the rod; then
// time-parallel transport from saved frame to saved frame; d1 = cos(theta) a1 + sin(theta) (t x a1).
// This equals the simulator's frame when every step is saved and the network is a single rod; with
// frames saved every k steps the transport over the longer interval differs at second order in
// the tangent's rotation between saved frames (docs/visualisation.md).

const UP = [0, 0, 1];  // the default m1 hint (kDefaultDirectorUp)
const CHECKPOINT = 16;  // frames between stored reference frames (scrubbing transports at most 15)

function tangents(run, f, t) {
  const { positions: x, numNodes: n, edges } = run;
  for (let e = 0; e < edges.length / 2; ++e) {
    const i = (f * n + edges[2 * e]) * 3, j = (f * n + edges[2 * e + 1]) * 3;
    const dx = x[j] - x[i], dy = x[j + 1] - x[i + 1], dz = x[j + 2] - x[i + 2];
    const l = Math.hypot(dx, dy, dz) || 1;
    t[3 * e] = dx / l; t[3 * e + 1] = dy / l; t[3 * e + 2] = dz / l;
  }
}

// transports a (3 components at offset ia) from unit s1 t1 to unit s2 t2 (offsets i1, i2), in place
function transport(a, ia, t1, i1, s1, t2, i2, s2) {
  const ax = s1 * t1[i1], ay = s1 * t1[i1 + 1], az = s1 * t1[i1 + 2];
  const bx = s2 * t2[i2], by = s2 * t2[i2 + 1], bz = s2 * t2[i2 + 2];
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  const c = ax * bx + ay * by + az * bz;
  let vx = a[ia], vy = a[ia + 1], vz = a[ia + 2];
  if (c > -1 + 1e-12) {
    // Rodrigues rotation taking t1 to t2: v c + (k x v) + k (k . v) / (1 + c), k = t1 x t2
    const kv = cx * vx + cy * vy + cz * vz, s = 1 / (1 + c);
    const rx = vx * c + (cy * vz - cz * vy) + cx * kv * s;
    const ry = vy * c + (cz * vx - cx * vz) + cy * kv * s;
    const rz = vz * c + (cx * vy - cy * vx) + cz * kv * s;
    vx = rx; vy = ry; vz = rz;
  }
  // project onto the plane normal to t2 and normalise
  const d = vx * bx + vy * by + vz * bz;
  vx -= d * bx; vy -= d * by; vz -= d * bz;
  const l = Math.hypot(vx, vy, vz) || 1;
  a[ia] = vx / l; a[ia + 1] = vy / l; a[ia + 2] = vz / l;
}

// a1 at t = 0 from the hint u as the simulator seeds it (initial_director in
// src/tendril/geometry/kinematics.cpp): u made normal to the unit tangent t (offset i), or, when u
// is within 1e-6 of parallel to t, the coordinate axis least aligned with u
function initialDirector(t, i, a, u) {
  const tx = t[i], ty = t[i + 1], tz = t[i + 2];
  let [ux, uy, uz] = u;
  const ul = Math.hypot(ux, uy, uz);
  if (!(Math.hypot(uy * tz - uz * ty, uz * tx - ux * tz, ux * ty - uy * tx) > 1e-6 * ul)) {
    const x = Math.abs(ux), y = Math.abs(uy), z = Math.abs(uz);
    const k = x <= y && x <= z ? 0 : y <= z ? 1 : 2;
    ux = k === 0 ? 1 : 0; uy = k === 1 ? 1 : 0; uz = k === 2 ? 1 : 0;
  }
  const d = ux * tx + uy * ty + uz * tz;
  const px = ux - d * tx, py = uy - d * ty, pz = uz - d * tz, l = Math.hypot(px, py, pz);
  a[i] = px / l; a[i + 1] = py / l; a[i + 2] = pz / l;
}

export class MaterialFrames {
  constructor(run) {
    this.run = run;
    const numEdges = run.edges.length / 2;
    this.t = new Float64Array(3 * numEdges);
    this.tNext = new Float64Array(3 * numEdges);
    this.a1 = new Float64Array(3 * numEdges);
    this.d1 = new Float32Array(3 * numEdges);
    this.checkpoints = [];  // a1 at frames 0, CHECKPOINT, 2 CHECKPOINT, ...
    this.current = -1;      // frame that this.a1 / this.t hold
    // edges along each rod chain, with the sign turning them into the chain's direction
    const edgeOf = new Map();
    for (let e = 0; e < numEdges; ++e) {
      edgeOf.set(`${run.edges[2 * e]},${run.edges[2 * e + 1]}`, [e, 1]);
      edgeOf.set(`${run.edges[2 * e + 1]},${run.edges[2 * e]}`, [e, -1]);
    }
    this.chainEdges = run.chains.map((chain) => chain.slice(1).map((v, k) => edgeOf.get(`${chain[k]},${v}`))
      .filter(Boolean));
  }

  initial() {
    const { t, a1 } = this;
    tangents(this.run, 0, t);
    for (let e = 0; e < t.length / 3; ++e) initialDirector(t, 3 * e, a1, UP);
    this.chainEdges.forEach((chain, r) => {
      if (chain.length > 0) initialDirector(t, 3 * chain[0][0], a1, this.run.directorHints?.[r] ?? UP);
      for (let k = 1; k < chain.length; ++k) {
        const [prev, sp] = chain[k - 1], [e, se] = chain[k];
        a1.set(a1.subarray(3 * prev, 3 * prev + 3), 3 * e);
        transport(a1, 3 * e, t, 3 * prev, sp, t, 3 * e, se);  // tangents taken along the chain
      }
    });
    this.current = 0;
    this.checkpoints[0] = Float64Array.from(a1);
  }

  step() {  // time-parallel transport from this.current to this.current + 1
    const { run, t, tNext, a1 } = this;
    tangents(run, this.current + 1, tNext);
    for (let e = 0; e < t.length / 3; ++e) transport(a1, 3 * e, t, 3 * e, 1, tNext, 3 * e, 1);
    t.set(tNext);
    this.current += 1;
    if (this.current % CHECKPOINT === 0 && !this.checkpoints[this.current / CHECKPOINT])
      this.checkpoints[this.current / CHECKPOINT] = Float64Array.from(a1);
  }

  /**
   * Stores the reference frames of every CHECKPOINT-th frame below `frames`, stepping on while
   * `hasTime()` allows (the page calls it when idle), so that showing any frame later transports
   * at most CHECKPOINT - 1 frames, e.g. when a large run is paused after playing as lines. Returns
   * whether all are stored.
   */
  advance(frames, hasTime) {
    if (this.current < 0) this.initial();
    const needed = Math.floor((frames - 1) / CHECKPOINT);  // the last checkpoint's index
    const last = this.checkpoints.length - 1;
    if (last >= needed) return true;
    if (this.current < last * CHECKPOINT) {  // go on from the last checkpoint
      this.a1.set(this.checkpoints[last]);
      this.current = last * CHECKPOINT;
      tangents(this.run, this.current, this.t);
    }
    while (this.checkpoints.length - 1 < needed && hasTime()) this.step();
    return this.checkpoints.length - 1 >= needed;
  }

  /** d1 (#edges x 3) at frame f. */
  at(f) {
    if (this.current < 0) this.initial();
    if (f < this.current || f > this.current + CHECKPOINT) {
      // restart from the nearest stored checkpoint at or before f
      let c = Math.min(Math.floor(f / CHECKPOINT), this.checkpoints.length - 1);
      while (!this.checkpoints[c]) --c;
      if (c * CHECKPOINT > this.current || f < this.current) {
        this.a1.set(this.checkpoints[c]);
        this.current = c * CHECKPOINT;
        tangents(this.run, this.current, this.t);
      }
    }
    while (this.current < f) this.step();
    const { t, a1, d1 } = this;
    const theta = this.run.twists;
    const numEdges = t.length / 3;
    for (let e = 0; e < numEdges; ++e) {
      const th = theta ? theta[f * numEdges + e] : 0, c = Math.cos(th), s = Math.sin(th);
      const i = 3 * e;
      const bx = t[i + 1] * a1[i + 2] - t[i + 2] * a1[i + 1];
      const by = t[i + 2] * a1[i] - t[i] * a1[i + 2];
      const bz = t[i] * a1[i + 1] - t[i + 1] * a1[i];
      d1[i] = c * a1[i] + s * bx; d1[i + 1] = c * a1[i + 1] + s * by; d1[i + 2] = c * a1[i + 2] + s * bz;
    }
    return d1;
  }
}
