// Quantities the viewer colours by: per node or per edge, computed from the saved frames with the
// same definitions as `tendril export --vtk` (docs/visualisation.md).

function nodeSpeed(run, f, out) {
  const { positions: x, numNodes: n, times } = run;
  const a = Math.max(f - 1, 0), b = Math.min(f + 1, run.frames - 1);
  const dt = times[b] - times[a];
  for (let i = 0; i < n; ++i) {
    if (!(dt > 0)) { out[i] = 0; continue; }
    const dx = x[(b * n + i) * 3] - x[(a * n + i) * 3];
    const dy = x[(b * n + i) * 3 + 1] - x[(a * n + i) * 3 + 1];
    const dz = x[(b * n + i) * 3 + 2] - x[(a * n + i) * 3 + 2];
    out[i] = Math.hypot(dx, dy, dz) / dt;
  }
}

// |v_i| [m/s] of the saved velocities, |f_i| [N] of the saved contact forces
const magnitude = (key) => (run, f, out) => {
  const v = run[key], n = run.numNodes;
  for (let i = 0; i < n; ++i) out[i] = Math.hypot(v[(f * n + i) * 3], v[(f * n + i) * 3 + 1], v[(f * n + i) * 3 + 2]);
};

function nodeDisplacement(run, f, out) {
  const { positions: x, numNodes: n } = run;
  for (let i = 0; i < n; ++i)
    out[i] = Math.hypot(x[(f * n + i) * 3] - x[i * 3], x[(f * n + i) * 3 + 1] - x[i * 3 + 1],
                        x[(f * n + i) * 3 + 2] - x[i * 3 + 2]);
}

// |kappa b| / Voronoi length at nodes inside a rod: 2 tan(phi/2) / ((|e_a| + |e_b|) / 2)
function nodeCurvature(run, f, out) {
  const { positions: x, numNodes: n } = run;
  out.fill(0);
  const o = f * n * 3;
  for (const chain of run.chains)
    for (let k = 1; k + 1 < chain.length; ++k) {
      const p = o + 3 * chain[k - 1], q = o + 3 * chain[k], r = o + 3 * chain[k + 1];
      const ax = x[q] - x[p], ay = x[q + 1] - x[p + 1], az = x[q + 2] - x[p + 2];
      const bx = x[r] - x[q], by = x[r + 1] - x[q + 1], bz = x[r + 2] - x[q + 2];
      const la = Math.hypot(ax, ay, az), lb = Math.hypot(bx, by, bz);
      const cross = Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
      out[chain[k]] = (2 * cross / (la * lb + ax * bx + ay * by + az * bz)) / (0.5 * (la + lb));
    }
}

function edgeLength(run, f, e) {
  const { positions: x, numNodes: n, edges } = run;
  const i = (f * n + edges[2 * e]) * 3, j = (f * n + edges[2 * e + 1]) * 3;
  return Math.hypot(x[j] - x[i], x[j + 1] - x[i + 1], x[j + 2] - x[i + 2]);
}

function edgeStrain(run, f, out) {
  for (let e = 0; e < out.length; ++e) out[e] = edgeLength(run, f, e) / edgeLength(run, 0, e) - 1;
}

function edgeTwist(run, f, out) {
  out.set(run.twists.subarray(f * out.length, (f + 1) * out.length));
}

function bodyAngle(run, f, out) {
  for (let b = 0; b < run.bodies; ++b) out[b] = run.bodyPose[(f * run.bodies + b) * 3 + 2];
}

function bodySpeed(run, f, out) {
  for (let b = 0; b < run.bodies; ++b) {
    const v = (f * run.bodies + b) * 3;
    out[b] = Math.hypot(run.bodyVelocity[v], run.bodyVelocity[v + 1]);
  }
}

// gap g = phi(x_i, t) - r_i [m] of each contact node to the nearest ground or obstacle surface, r_i the
// largest radius of the contact rods through node i (src/tendril/sim/contact_scene.cpp); NaN on
// nodes that take no part in contact
function contactGap(contact, radius) {
  return (run, f, out) => {
    const { positions: x, numNodes: n, times } = run;
    for (let i = 0; i < n; ++i)
      out[i] = radius[i] >= 0 ? contact.gap([x[(f * n + i) * 3], x[(f * n + i) * 3 + 1], x[(f * n + i) * 3 + 2]], times[f]) - radius[i]
                              : NaN;
  };
}

// contact radius of every node: the largest radius of the contact rods (`contact.rods`, default
// all) through it, -1 elsewhere; a rod's radius is `material.radius` or sqrt(A / pi)
function contactRadius(run) {
  if (run.kind === 'vine3d') return new Float64Array(run.numNodes).fill(run.contactRadius);
  const scene = run.meta.scene;
  const rods = scene.contact.rods ?? run.chains.map((_, r) => r);
  const radius = new Float64Array(run.numNodes).fill(-1);
  for (const r of rods) {
    const m = scene.rods?.[r]?.material ?? {};
    const rodRadius = m.radius ?? Math.sqrt((m.section?.A ?? 0) / Math.PI);
    for (const i of run.chains[r] ?? []) radius[i] = Math.max(radius[i], rodRadius);
  }
  return radius;
}

/**
 * The fields available for `run`: {key, label, unit, on: 'node' | 'edge', compute(run, f, out)};
 * `contact` (obstacles.js RigidObstacles) adds the contact gap.
 */
export function fieldsOf(run, contact = null) {
  const fields = [
    // the saved velocities when the run has them, else differences of the saved positions
    { key: 'speed', label: 'speed', unit: 'm/s', on: 'node', compute: run.velocities ? magnitude('velocities') : nodeSpeed },
    { key: 'displacement', label: 'displacement', unit: 'm', on: 'node', compute: nodeDisplacement },
    { key: 'curvature', label: 'curvature', unit: '1/m', on: 'node', compute: nodeCurvature },
  ];
  const rods = run.edges.length > 0;  // a run of shells only has no edge fields
  if (run.kind === 'rod' && rods) fields.push({ key: 'strain', label: 'strain', unit: '-', on: 'edge', compute: edgeStrain });
  if (run.twists && rods) fields.push({ key: 'twist', label: 'twist θ', unit: 'rad', on: 'edge', compute: edgeTwist });
  if (run.contactForces) fields.push({ key: 'contact_force', label: 'contact force', unit: 'N', on: 'node', compute: magnitude('contactForces') });
  if (contact) fields.push({ key: 'contact_gap', label: 'contact gap', unit: 'm', on: 'node', compute: contactGap(contact, contactRadius(run)) });
  if (run.kind === 'vine') {
    fields.push({ key: 'body_angle', label: 'body angle', unit: 'rad', on: 'edge', compute: bodyAngle });
    if (run.bodyVelocity) fields.push({ key: 'body_speed', label: 'body speed', unit: 'm/s', on: 'edge', compute: bodySpeed });
  }
  return fields;
}

/** [min, max] of a field over every loaded frame (cached on the run once all frames are in). */
export function fieldRange(run, field) {
  run.ranges ??= {};
  if (run.ranges[field.key]) return run.ranges[field.key];
  const out = new Float64Array(field.on === 'node' ? run.numNodes : run.edges.length / 2);
  let lo = Infinity, hi = -Infinity;
  const frames = run.loadedFrames();
  for (let f = 0; f < frames; ++f) {
    field.compute(run, f, out);
    for (const v of out) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  if (lo === hi) { lo -= 0.5 * Math.abs(lo) || 0.5; hi += 0.5 * Math.abs(hi) || 0.5; }
  if (frames < run.frames) return [lo, hi];
  return (run.ranges[field.key] = [lo, hi]);
}

// viridis, 9 control points (matplotlib's colour map values at 0, 1/8, ..., 1)
const VIRIDIS = [[0.267, 0.005, 0.329], [0.279, 0.175, 0.483], [0.230, 0.322, 0.546], [0.173, 0.449, 0.558],
                 [0.128, 0.567, 0.551], [0.157, 0.684, 0.502], [0.369, 0.789, 0.383], [0.678, 0.864, 0.190],
                 [0.993, 0.906, 0.144]];

/** Writes the colour of s in [0, 1] as r, g, b in [0, 1] into out[at], out[at + 1], out[at + 2]. */
export function colourMap(s, out, at) {
  const u = Math.min(Math.max(Number.isFinite(s) ? s : 0, 0), 1) * (VIRIDIS.length - 1);
  const k = Math.min(Math.floor(u), VIRIDIS.length - 2), w = u - k;
  const a = VIRIDIS[k], b = VIRIDIS[k + 1];
  for (let i = 0; i < 3; ++i) out[at + i] = a[i] + w * (b[i] - a[i]);
}

/** CSS gradient of the colour map, for the legend. */
export function colourMapCss() {
  return `linear-gradient(to right, ${VIRIDIS.map((c, i) =>
    `rgb(${c.map((v) => Math.round(255 * v)).join(',')}) ${(100 * i) / (VIRIDIS.length - 1)}%`).join(', ')})`;
}
