// A run directory as the viewer sees it: fetched from `tendril view` (/run/<i>/<file>), turned into
// one shape for rods, rod networks, shells, planar vines and 3D vines: nodes (F, N, 3), edges with a
// radius, node chains (rods), optional triangles, optional twist per edge, optional node velocities
// and contact forces, the rigid obstacles (`contact`, as a rod scene's `contact` map), and the
// fields one can colour by.
import { parseNpy, parseNpyHeader, truncated } from './npy.js';

async function fetchOk(url, what, range) {
  const response = await fetch(url, range ? { headers: { Range: range } } : undefined);
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${(await response.text()).trim()}`);
  return response;
}

/**
 * A float64 array of frames, (F, ...): the header and frame 0 are fetched first (HTTP ranges), the
 * rest streams into `data` in the background; `framesLoaded` counts the complete frames so far and
 * `done` resolves when all are in. Other dtypes, or a server without ranges: one whole fetch.
 */
async function openFrameArray(url, name) {
  const whole = async (response) => {
    const a = parseNpy(await response.arrayBuffer(), name);
    return { ...a, framesLoaded: a.shape[0], done: Promise.resolve() };
  };
  const head = await fetchOk(url, name, 'bytes=0-4095');
  if (head.status !== 206) return whole(head);
  const total = Number((head.headers.get('Content-Range') || '').split('/')[1]);
  const { shape, descr, offset, count } = parseNpyHeader(new Uint8Array(await head.arrayBuffer()), name);
  if (descr !== '<f8' || shape.length < 1) return whole(await fetchOk(url, name));
  if (!(total >= offset + 8 * count)) throw truncated(name, shape, count, (total - offset) / 8);
  const data = new Float64Array(count);
  // an array of empty frames (e.g. the twists of a run with shells and no rods) has all of them
  if (count === 0) return { shape, data, framesLoaded: shape[0], done: Promise.resolve() };
  const array = { shape, data, framesLoaded: 0, done: Promise.resolve() };
  const frameBytes = (8 * count) / shape[0];
  const bytes = new Uint8Array(data.buffer);
  bytes.set(new Uint8Array(await (await fetchOk(url, name, `bytes=${offset}-${offset + frameBytes - 1}`)).arrayBuffer()));
  array.framesLoaded = 1;
  if (shape[0] > 1)
    array.done = (async () => {
      const reader = (await fetchOk(url, name, `bytes=${offset + frameBytes}-${offset + 8 * count - 1}`)).body.getReader();
      let at = frameBytes;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes.set(value, at);
        at += value.length;
        array.framesLoaded = Math.floor(at / frameBytes);
      }
      if (at !== 8 * count) throw truncated(name, shape, count, at / 8);
    })();
  return array;
}

/** Loads run `index` (its name and the server's verdict in `entry`). */
export async function loadRun(index, entry) {
  const base = `/run/${index}/`;
  const meta = await (await fetchOk(base + 'run.json', 'run.json')).json().catch((e) => {
    throw new Error(`run.json: not valid JSON (${e.message})`);
  });
  if (meta.format !== 'tendril-run' || (meta.format_version !== 1 && meta.format_version !== 2))
    throw new Error(`run.json: format '${meta.format}' version ${meta.format_version}; allowed: 'tendril-run' version 1 or 2`);
  const files = Object.fromEntries(meta.arrays.map((a) => [a.name, a.file]));
  const wanted = { vine: ['frame_time', 'centerline', 'body_pose', 'body_velocity'],
                   vine3d: ['frame_time', 'centerline', 'body_position'] }[meta.kind]
                 ?? ['frame_time', 'positions', 'twists', 'velocities', 'contact_forces'];
  const arrays = {};
  // rod frames stream in (frame 0 first); the small arrays and vine runs come whole
  const streamed = meta.kind.startsWith('vine') ? [] : ['positions', 'twists', 'velocities', 'contact_forces'];
  await Promise.all(wanted.filter((n) => files[n]).map(async (n) => {
    if (streamed.includes(n)) {
      arrays[n] = await openFrameArray(base + files[n], files[n]);
    } else {
      const a = parseNpy(await (await fetchOk(base + files[n], files[n])).arrayBuffer(), files[n]);
      arrays[n] = { ...a, framesLoaded: a.shape[0], done: Promise.resolve() };
    }
  }));
  for (const n of wanted.slice(0, 3))
    if (!arrays[n]) throw new Error(`run.json lists no array '${n}'`);
  const run = { vine: vineRun, vine3d: vine3dRun }[meta.kind]?.(meta, arrays) ?? rodRun(meta, arrays);
  run.name = entry.name;
  run.meta = meta;
  run.times = arrays.frame_time.data;
  run.frames = arrays.frame_time.shape[0];
  if (run.frames === 0) throw new Error('the run has no saved frames');
  const framed = Object.values(arrays).filter((a) => a.shape[0] === run.frames);
  /** Frames whose every array has arrived. */
  run.loadedFrames = () => Math.min(...framed.map((a) => a.framesLoaded));
  run.loaded = Promise.all(Object.values(arrays).map((a) => a.done));
  return run;
}

function nodeVectors(array, name, shape) {
  if (!array) return null;
  if (array.shape.join() !== shape.join()) throw new Error(`${name}: shape (${array.shape}) differs from positions.npy's (${shape})`);
  return array.data;
}

function rodRun(meta, a) {
  const info = meta.info;
  const [frames, numNodes] = a.positions.shape;
  if (numNodes !== info.num_nodes || a.positions.shape[2] !== 3)
    throw new Error(`positions.npy: shape (${a.positions.shape}) does not match info.num_nodes = ${info.num_nodes}`);
  if (frames !== a.frame_time.shape[0])
    throw new Error(`positions.npy has ${frames} frames, frame_time.npy ${a.frame_time.shape[0]}`);
  const edges = Int32Array.from(info.edges.flat());
  const chains = info.rod_nodes || [];
  // radius of each edge: its rod's material radius
  const radiusOf = new Map();
  chains.forEach((chain, r) => {
    const radius = meta.scene?.rods?.[r]?.material?.radius ?? 0;
    for (let k = 0; k + 1 < chain.length; ++k)
      radiusOf.set(Math.min(chain[k], chain[k + 1]) * numNodes + Math.max(chain[k], chain[k + 1]), radius);
  });
  const radius = new Float32Array(edges.length / 2);
  for (let e = 0; e < radius.length; ++e) {
    const i = edges[2 * e], j = edges[2 * e + 1];
    radius[e] = radiusOf.get(Math.min(i, j) * numNodes + Math.max(i, j)) ?? 0;
  }
  return {
    kind: 'rod', planar: false, numNodes, edges, chains, radius,
    positions: a.positions.data,
    twists: a.twists ? a.twists.data : null,
    // (F, N, 3) like positions, when the run records them
    velocities: nodeVectors(a.velocities, 'velocities.npy', a.positions.shape),
    contactForces: nodeVectors(a.contact_forces, 'contact_forces.npy', a.positions.shape),
    triangles: info.triangles ? Int32Array.from(info.triangles.flat()) : null,
    obstacles: [], contact: meta.scene?.contact ?? null,
  };
}

function vineRun(meta, a) {
  const [frames, points] = a.centerline.shape;
  const bodies = a.body_pose.shape[1];
  const positions = new Float64Array(frames * points * 3);
  for (let i = 0; i < frames * points; ++i) {
    positions[3 * i] = a.centerline.data[2 * i];
    positions[3 * i + 1] = a.centerline.data[2 * i + 1];
  }
  const edges = new Int32Array(2 * bodies);
  for (let b = 0; b < bodies; ++b) { edges[2 * b] = b; edges[2 * b + 1] = b + 1; }
  const vine = meta.scene.vine;
  return {
    kind: 'vine', planar: true, numNodes: points, edges,
    chains: [Array.from({ length: points }, (_, i) => i)],
    radius: new Float32Array(bodies).fill(vine.tube_diameter / 2),
    positions, twists: null, triangles: null,
    obstacles: vine.obstacles || [], contact: null,
    bodyPose: a.body_pose.data, bodyVelocity: a.body_velocity ? a.body_velocity.data : null, bodies,
  };
}

// a 3D vine run: the centre line (base, body joints, tip) as the nodes, a tube of the vine's
// diameter per body, and its obstacles (spheres, planes, boxes: the keys of a rod scene's
// contact.obstacles) as rigid obstacles
function vine3dRun(meta, a) {
  const [, points] = a.centerline.shape;
  const bodies = points - 1;
  if (a.body_position.shape[1] !== bodies)
    throw new Error(`centerline.npy has ${points} points, body_position.npy ${a.body_position.shape[1]} bodies`);
  const edges = new Int32Array(2 * bodies);
  for (let b = 0; b < bodies; ++b) { edges[2 * b] = b; edges[2 * b + 1] = b + 1; }
  const vine = meta.scene.vine3d;
  return {
    kind: 'vine3d', planar: false, numNodes: points, edges,
    chains: [Array.from({ length: points }, (_, i) => i)],
    radius: new Float32Array(bodies).fill(vine.tube_diameter / 2),
    positions: a.centerline.data, twists: null, triangles: null, obstacles: [],
    // a horizontal plane is drawn as the ground (its colour, the grid on it)
    contact: vine.obstacles?.length ? { ground: { enabled: false }, obstacles: vine.obstacles.map((o) =>
      (o.shape === 'plane' && Math.abs(o.normal[2]) === Math.hypot(...o.normal) ? { ...o, ground: true } : o)) } : null,
    contactRadius: vine.contact?.radius ?? vine.tube_diameter / 2, bodies,
  };
}
