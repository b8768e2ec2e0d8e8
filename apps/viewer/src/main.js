// The page `tendril view` serves: every run of /api/runs side by side on one shared clock, with
// play, pause, scrub, speed, colour-by and a time read-out. URL parameters (used by `tendril
// render`): render=1 (no controls), colour=<field>, azimuth=, elevation= [deg], zoom=, frame=.
// window.__tendril is the hook the browser tests and the renderer drive.
import { loadRun } from './run.js';
import { Panel, BACKGROUND } from './panel.js';

const params = new URLSearchParams(location.search);
const options = {
  render: params.get('render') === '1',
  azimuth: params.has('azimuth') ? Number(params.get('azimuth')) : undefined,
  elevation: params.has('elevation') ? Number(params.get('elevation')) : undefined,
  zoom: params.has('zoom') ? Number(params.get('zoom')) : undefined,
  pixelRatio: params.get('render') === '1' ? 1 : undefined,
};
const $ = (id) => document.getElementById(id);
if (options.render) document.body.classList.add('render');

const state = { time: 0, playing: false, speed: 1, panels: [], duration: 0, rate: 1, colour: params.get('colour') || '' };
const hook = (window.__tendril = { ready: false, loaded: false, errors: [], openMs: null, loadedMs: null, timings: [] });

function lead() { return state.panels.find((p) => p.run); }

function setTime(t) {
  state.time = Math.min(Math.max(t, 0), state.duration);
  for (const p of state.panels) if (p.run) p.show(p.frameAt(state.time));
  const l = lead();
  if (l) {
    $('scrub').value = String(l.frame);
    $('readout').textContent = `t = ${state.time.toFixed(4)} s   frame ${l.frame} / ${l.run.frames - 1}`;
  }
}

function setFrame(k) {
  const l = lead();
  if (l) setTime(l.run.times[Math.min(Math.max(k, 0), l.run.frames - 1)]);
}

function setPlaying(on) {
  state.playing = on;
  for (const p of state.panels) if (p.run) { p.body.setFast(on); p.dirty = true; }
  $('play').textContent = on ? 'Pause' : 'Play';
  last = performance.now();
}

let last = performance.now();
let drawn = 0, frameChanges = 0;
function loop(now) {
  if (state.playing && state.duration > 0) {
    let t = state.time + ((now - last) / 1000) * state.rate * state.speed;
    if (t > state.duration) t = 0;  // loop
    const before = lead().frame;
    setTime(t);
    if (lead().frame !== before) ++frameChanges;
  }
  last = now;
  for (const p of state.panels) if (p.render()) ++drawn;
  requestAnimationFrame(loop);
}

function buildControls() {
  $('play').onclick = () => setPlaying(!state.playing);
  $('scrub').oninput = (e) => { setPlaying(false); setFrame(Number(e.target.value)); };
  $('speed').onchange = (e) => { state.speed = Number(e.target.value); };
  $('colour').onchange = (e) => { state.colour = e.target.value; for (const p of state.panels) p.setField(state.colour); };
  window.addEventListener('resize', () => state.panels.forEach((p) => p.resize()));
  window.addEventListener('keydown', (e) => { if (e.key === ' ') { e.preventDefault(); setPlaying(!state.playing); } });
}

async function main() {
  buildControls();
  let entries;
  try {
    const response = await fetch('/api/runs');
    entries = (await response.json()).runs;
  } catch (e) {
    $('status').textContent = `Cannot reach the tendril view server: ${e.message}`;
    $('status').className = 'error';
    hook.errors.push(String(e));
    hook.ready = hook.loaded = true;
    return;
  }
  const container = $('panels');
  state.panels = entries.map((entry) => new Panel(container, entry));
  await Promise.all(state.panels.map(async (panel, i) => {
    try {
      if (panel.entry.error) throw new Error(panel.entry.error);
      const t0 = performance.now();
      const run = await loadRun(i, panel.entry);
      const t1 = performance.now();
      panel.attach(run, options);
      hook.timings.push({ run: run.name, fetchAndParseMs: t1 - t0, buildSceneMs: performance.now() - t1 });
    } catch (e) {
      panel.fail(e);
      hook.errors.push(`${panel.entry.name}: ${panel.error}`);
    }
  }));
  const loaded = state.panels.filter((p) => p.run);
  if (loaded.length) {
    state.duration = Math.max(...loaded.map((p) => p.run.times[p.run.frames - 1]));
    // 1x plays the whole run in about 5 s of wall time
    state.rate = state.duration > 0 ? state.duration / 5 : 1;
    $('scrub').max = String(lead().run.frames - 1);
    const keys = new Map();
    for (const p of loaded) for (const f of p.fields) keys.set(f.key, `${f.label} [${f.unit}]`);
    for (const [key, label] of keys) $('colour').add(new Option(label, key));
    $('colour').value = keys.has(state.colour) ? state.colour : '';
    for (const p of loaded) p.setField($('colour').value);
    setFrame(params.has('frame') ? Number(params.get('frame')) : 0);
    const t0 = performance.now();
    for (const p of loaded) p.render(true);
    loaded[0].renderer.getContext().finish();
    hook.timings.push({ firstRenderMs: performance.now() - t0 });
  }
  $('status').textContent = hook.errors.length ? `${hook.errors.length} run(s) could not be shown` : '';
  $('status').className = hook.errors.length ? 'error' : '';
  hook.openMs = performance.now();
  hook.ready = true;
  requestAnimationFrame(loop);
  // the rest of the frames stream in: then colour ranges cover every frame
  await Promise.all(loaded.map((p) => p.run.loaded.catch((e) => {
    p.fail(e);
    hook.errors.push(`${p.entry.name}: ${p.error}`);
  })));
  for (const p of loaded) {
    p.setField($('colour').value);
    if (!p.userMoved && !p.error) p.fitCamera();  // now over the whole run
  }
  setTime(state.time);
  hook.loadedMs = performance.now();
  hook.loaded = true;
}

Object.assign(hook, {
  background: BACKGROUND,
  runs: () => state.panels.map((p) => (p.run ? { name: p.run.name, kind: p.run.kind, frames: p.run.frames,
                                                 nodes: p.run.numNodes } : { name: p.entry.name, error: p.error })),
  play: () => setPlaying(true),
  pause: () => setPlaying(false),
  setFrame: (k) => { setFrame(k); state.panels.forEach((p) => p.render(true)); },
  frame: (i = 0) => state.panels[i].frame,
  time: () => state.time,
  readout: () => $('readout').textContent,
  setColour: (key) => { $('colour').value = key; $('colour').onchange({ target: $('colour') }); },
  /** Node positions as drawn in panel i, (#nodes x 3). */
  drawnPositions: (i = 0) => Array.from(state.panels[i].body.drawnNodePositions()),
  /** 'lines' (a large run while playing) or 'tubes'. */
  drawMode: (i = 0) => (state.panels[i].body.fast ? 'lines' : 'tubes'),
  /** Canvas pixel coordinates (from the top left) of node `node` of panel i at the shown frame. */
  project: (i, node) => {
    const p = state.panels[i];
    const o = (p.frame * p.run.numNodes + node) * 3;
    return hook.projectPoint(i, Array.from(p.run.positions.subarray(o, o + 3)));
  },
  /** Canvas pixel coordinates (from the top left) of a world point [x, y, z] [m] in panel i. */
  projectPoint: (i, [x, y, z]) => {
    const p = state.panels[i];
    const v = new p.camera.position.constructor(x, y, z).project(p.camera);
    const c = p.renderer.domElement;
    return [Math.round(((v.x + 1) / 2) * c.width), Math.round(((1 - v.y) / 2) * c.height)];
  },
  /** Values of field `key` at saved frame f of panel i (per node or per edge). */
  fieldValues: (i, key, f) => {
    const p = state.panels[i], field = p.fields.find((d) => d.key === key);
    const out = new Float64Array(field.on === 'node' ? p.run.numNodes : p.run.edges.length / 2);
    field.compute(p.run, f, out);
    return Array.from(out);
  },
  /** Shows or hides the ground and rigid obstacles of panel i (rod runs with contact). */
  setObstaclesVisible: (i, on) => { state.panels[i].body.contact.group.visible = on; state.panels[i].dirty = true; },
  /** RGB of canvas pixels [[x, y], ...] of panel i (after a fresh render). */
  pixels: (i, points) => {
    const p = state.panels[i];
    p.render(true);
    const gl = p.renderer.getContext(), h = p.renderer.domElement.height, rgba = new Uint8Array(4);
    return points.map(([x, y]) => { gl.readPixels(x, h - 1 - y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, rgba); return [rgba[0], rgba[1], rgba[2]]; });
  },
  setBodyVisible: (i, on) => { state.panels[i].body.group.visible = on; state.panels[i].dirty = true; },
  /** Plays for `seconds`: canvas frames drawn per second (per panel) and saved-frame changes. */
  measurePlayback: (seconds) => new Promise((resolve) => {
    const d0 = drawn, c0 = frameChanges, t0 = performance.now();
    setPlaying(true);
    setTimeout(() => {
      setPlaying(false);
      const s = (performance.now() - t0) / 1000;
      resolve({ fps: (drawn - d0) / s / Math.max(state.panels.filter((p) => p.run).length, 1),
                frameChanges: frameChanges - c0, seconds: s });
    }, seconds * 1000);
  }),
  setSpeed: (s) => { state.speed = s; },
});

main();
