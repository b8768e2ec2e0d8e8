// The page `tendril view` serves: every run of /api/runs side by side on one shared clock that runs
// to the end of the longest run (a run that ended holds its last frame), with play, pause, scrub,
// speed, colour-by and a time read-out. URL parameters (used by `tendril render`): render=1 (no
// controls; a time stamp and the run names drawn in the frame), colour=<field>, azimuth=,
// elevation= [deg], zoom=, frame=, deform= (the deformation scale factor).
// window.__tendril is the hook the browser tests and the renderer drive.
import { loadRun } from './run.js';
import { Panel, BACKGROUND } from './panel.js';
import { AdaptiveResolution } from './adaptive_resolution.js';

const params = new URLSearchParams(location.search);
const options = {
  render: params.get('render') === '1',
  azimuth: params.has('azimuth') ? Number(params.get('azimuth')) : undefined,
  elevation: params.has('elevation') ? Number(params.get('elevation')) : undefined,
  zoom: params.has('zoom') ? Number(params.get('zoom')) : undefined,
  pixelRatio: params.get('render') === '1' ? 1 : undefined,
};
const MAX_CONTEXTS = 16;  // WebGL contexts Chromium keeps alive in one page
const $ = (id) => document.getElementById(id);
if (options.render) document.body.classList.add('render');

const state = { time: 0, playing: false, speed: 1, panels: [], duration: 0, rate: 1, colour: params.get('colour') || '' };
const resolution = new AdaptiveResolution();  // of the frames drawn while playing
const hook = (window.__tendril = { ready: false, loaded: false, errors: [], openMs: null, loadedMs: null, timings: [] });

const lastTime = (p) => p.run.times[p.run.frames - 1];
/** The panel whose run lasts longest (the first of those): the slider steps through its frames. */
function lead() {
  return state.panels.reduce((best, p) => (p.run && (!best || lastTime(p) > lastTime(best)) ? p : best), null);
}

/** "t = 0.125 s", with the digits that resolve a thousandth of the clock's duration. */
function timeStamp(t) {
  const digits = state.duration > 0 ? Math.min(9, Math.max(0, Math.ceil(-Math.log10(state.duration / 1000)))) : 3;
  return `t = ${t.toFixed(digits)} s`;
}

function setTime(t) {
  state.time = Math.min(Math.max(t, 0), state.duration);
  for (const p of state.panels) if (p.run) p.show(p.frameAt(state.time));
  const l = lead();
  if (l) {
    $('scrub').value = String(l.frame);
    $('readout').textContent = `t = ${state.time.toFixed(4)} s   frame ${l.frame} / ${l.run.frames - 1}`;
  }
  $('stamp').textContent = timeStamp(state.time);
}

function setFrame(k) {
  const l = lead();
  if (l) setTime(l.run.times[Math.min(Math.max(k, 0), l.run.frames - 1)]);
}

function setPlaying(on) {
  state.playing = on;
  if (on) resolution.start();
  for (const p of state.panels) p.setPlaying(on, resolution.scale);
  $('play').textContent = on ? 'Pause' : 'Play';
  last = performance.now();
}

let last = performance.now();
let drawn = 0, frameChanges = 0, ticks = 0, drewLast = false;
function loop(now) {
  ++ticks;
  const interval = now - last;  // since the last frame [ms]
  if (state.playing && state.duration > 0) {
    // on to the end (its last frames shown), then from the start again
    const t = state.time >= state.duration ? 0 : Math.min(state.time + (interval / 1000) * state.rate * state.speed, state.duration);
    const before = lead().frame;
    setTime(t);
    if (lead().frame !== before) ++frameChanges;
  }
  // the pace of frames that drew while playing, of frames that did not while paused
  if (state.playing) {
    if (drewLast && resolution.playingFrame(interval)) for (const p of state.panels) p.setPlaying(true, resolution.scale);
  } else if (!drewLast) {
    resolution.idleFrame(interval);
  }
  last = now;
  drewLast = false;
  for (const p of state.panels) if (p.render()) { ++drawn; drewLast = true; }
  requestAnimationFrame(loop);
}

function buildControls() {
  $('play').onclick = () => setPlaying(!state.playing);
  $('scrub').oninput = (e) => { setPlaying(false); setFrame(Number(e.target.value)); };
  $('speed').onchange = (e) => { state.speed = Number(e.target.value); };
  $('deform').onchange = (e) => {
    const v = Number(e.target.value);
    if (Number.isFinite(v) && v >= 0) state.panels.forEach((p) => p.setDeformationScale(v));
    else e.target.value = String(lead()?.body.deformationScale ?? 1);
  };
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
  // Chromium keeps at most 16 WebGL contexts per page (it drops the oldest beyond that): a
  // separate playing canvas per panel up to 8 panels, beyond that panels play on their still one
  options.playingCanvases = entries.length <= MAX_CONTEXTS / 2;
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
    if (params.has('deform')) hook.setDeformationScale(Number(params.get('deform')));
    setFrame(params.has('frame') ? Number(params.get('frame')) : 0);
    const t0 = performance.now();
    for (const p of loaded) p.render(true);
    const gl = loaded[0].renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));  // waits for the GPU
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
  // ahead of the first play (a still render needs none): the playing canvases, and in idle time the
  // material frames' checkpoints, so pausing anywhere transports a few frames only
  if (!options.render) {
    setTimeout(() => loaded.forEach((p) => p.error || p.preparePlaying()), 0);
    const precompute = (deadline) => {
      const hasTime = () => deadline.timeRemaining() > 1;
      if (!loaded.every((p) => p.error || p.body.frames.advance(p.run.frames, hasTime))) requestIdleCallback(precompute);
    };
    requestIdleCallback(precompute);
  }
}

Object.assign(hook, {
  background: BACKGROUND,
  runs: () => state.panels.map((p) => (p.run ? { name: p.run.name, kind: p.run.kind, frames: p.run.frames,
                                                 nodes: p.run.numNodes } : { name: p.entry.name, error: p.error })),
  play: () => setPlaying(true),
  pause: () => { setPlaying(false); resolution.fixed = null; },
  setFrame: (k) => { setFrame(k); state.panels.forEach((p) => p.render(true)); },
  /** Shows every run at time t [s] (clamped to 0 .. duration()). */
  setTime: (t) => { setTime(t); state.panels.forEach((p) => p.render(true)); },
  /** The clock's end: the last saved time of the longest run [s]. */
  duration: () => state.duration,
  /** Index of the panel the slider and read-out follow (the longest run). */
  lead: () => state.panels.indexOf(lead()),
  frame: (i = 0) => state.panels[i].frame,
  time: () => state.time,
  readout: () => $('readout').textContent,
  setColour: (key) => { $('colour').value = key; $('colour').onchange({ target: $('colour') }); },
  /** Node positions as drawn in panel i, (#nodes x 3). */
  drawnPositions: (i = 0) => Array.from(state.panels[i].body.drawnNodePositions()),
  /**
   * The canvas panel i draws on now: 'playing' or 'still', whether it is multisampled, its drawing
   * buffer's and its on-page size [px], whether it is shown, and whether any WebGL context of the
   * panel was lost.
   */
  canvas: (i = 0) => {
    const p = state.panels[i], c = p.renderer.domElement;
    return { role: p.renderer === p.stillRenderer ? 'still' : 'playing',
             antialias: p.renderer.getContext().getContextAttributes().antialias, width: c.width, height: c.height,
             clientWidth: c.clientWidth, clientHeight: c.clientHeight, visible: getComputedStyle(c).visibility === 'visible',
             lost: [p.stillRenderer, p.playRenderer].some((r) => r?.getContext().isContextLost()) };
  },
  /** 'lines' (a large run while playing) or 'tubes'. */
  drawMode: (i = 0) => (state.panels[i].body.fast ? 'lines' : 'tubes'),
  /** Canvas pixel coordinates (from the top left) of node `node` of panel i as drawn at the shown frame. */
  project: (i, node) => {
    const p = state.panels[i];
    return hook.projectPoint(i, Array.from(p.body.drawnPositions(p.frame).subarray(3 * node, 3 * node + 3)));
  },
  /** Sets the deformation scale factor of every panel (as the bar's input does). */
  setDeformationScale: (s) => { $('deform').value = String(s); $('deform').onchange({ target: $('deform') }); },
  /** The note of panel i (grid spacing, deformation scale). */
  note: (i) => state.panels[i].note.textContent,
  /** Panel i's ground grid: spacing [m], extent, z, label texts, visible; null without one (vines). */
  grid: (i) => state.panels[i].grid?.describe() ?? null,
  setGridVisible: (i, on) => { state.panels[i].grid.group.visible = on; state.panels[i].dirty = true; },
  /**
   * Panel i's contact force arrows at the shown frame: the arrows drawn (nodes with a force), the
   * scale c [m/N] and each node's arrow tip x_i + c f_i [m]; null when the run records no contact forces.
   */
  contactArrows: (i) => {
    const a = state.panels[i].arrows;
    return a ? { count: a.count, scale: a.scale(), tips: Array.from(a.tips), visible: a.group.visible } : null;
  },
  setArrowsVisible: (i, on) => { state.panels[i].arrows.group.visible = on; state.panels[i].dirty = true; },
  /** Canvas pixel coordinates (from the top left) of a world point [x, y, z] [m] in panel i. */
  projectPoint: (i, [x, y, z]) => {
    const p = state.panels[i];
    const v = new p.camera.position.constructor(x, y, z).project(p.camera);
    const c = p.renderer.domElement;
    // the pixel that contains the point (pixel k covers [k, k + 1); rounding would pick a neighbour
    // for half of the points, which a sub-pixel line through the point need not touch)
    const pixel = (u, n) => Math.min(n - 1, Math.max(0, Math.floor(u)));
    return [pixel(((v.x + 1) / 2) * c.width, c.width), pixel(((1 - v.y) / 2) * c.height, c.height)];
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
  /**
   * Plays for `seconds`: canvas frames drawn per second (per panel), requestAnimationFrame
   * callbacks per second, saved-frame changes and the playing resolution's scale at the end; at
   * the fixed resolution scale `scale` if given, else adapting it. Still playing when it resolves
   * (pause() ends it), so that what pausing costs is not counted.
   */
  measurePlayback: (seconds, scale = null) => new Promise((resolve) => {
    resolution.fixed = scale;
    const d0 = drawn, c0 = frameChanges, k0 = ticks, t0 = performance.now();
    setPlaying(true);
    setTimeout(() => {
      const s = (performance.now() - t0) / 1000;
      resolve({ fps: (drawn - d0) / s / Math.max(state.panels.filter((p) => p.run).length, 1),
                frameChanges: frameChanges - c0, ticksPerSecond: (ticks - k0) / s, seconds: s,
                scale: resolution.scale });
    }, seconds * 1000);
  }),
  setSpeed: (s) => { state.speed = s; },
  /** requestAnimationFrame callbacks per second, paused (nothing drawn): the page's frame cap. */
  measureIdle: (seconds) => new Promise((resolve) => {
    setPlaying(false);
    const k0 = ticks, t0 = performance.now();
    setTimeout(() => resolve((ticks - k0) / ((performance.now() - t0) / 1000)), seconds * 1000);
  }),
  /**
   * Where a frame's time goes: `count` consecutive saved frames of the first run shown as while
   * playing, each timed in the page: update (posing, colouring), render (three.js calls) and gpu
   * (reading one pixel back waits for the frame's GPU work; gl.finish does not in Chromium); then
   * the same for frames drawn paused. Medians [ms].
   */
  profilePlayback: (count = 60) => {
    const p = lead(), pixel = new Uint8Array(4);
    const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];
    const time = (n) => {
      const update = [], render = [], gpu = [], gl = p.renderer.getContext();
      for (let k = 0; k < n; ++k) {
        const t0 = performance.now();
        setTime(p.run.times[(p.frame + 1) % p.run.loadedFrames()]);
        const t1 = performance.now();
        p.render(true);
        const t2 = performance.now();
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        update.push(t1 - t0); render.push(t2 - t1); gpu.push(performance.now() - t2);
      }
      return { updateMs: median(update), renderMs: median(render), gpuMs: median(gpu) };
    };
    setPlaying(true);
    const playing = time(count);
    setPlaying(false);
    return { playing, paused: time(Math.min(count, 5)) };
  },
});

main();
