// Opening time and playback frame rate of the viewer on synthetic rod runs, in headless Chromium
// (the same flags as the tests). Not a ctest: it writes ~330 MB for the large run and takes minutes.
// Usage: node perf.mjs TENDRIL [FRAMES NODES]...   (default: 1000 10000 1000 100)
// Each run: one rod of NODES nodes (a travelling wave on a straight line, radius 2 mm) with FRAMES
// saved frames, written in the tendril-run 1 format (positions, twists, frame_time), opened three
// times in one browser (viewport 1280 x 720). Prints the load average (1, 5, 15 min) before and
// after, and per load:
//  - openMs / allFramesMs: navigation to the first drawn frame (window.__tendril.ready: frame 0
//    shown, controls live) and to every frame loaded (window.__tendril.loaded);
//  - adaptive, fullResolution: 5 s of playback, with the playing resolution adapted as users get
//    it, and at full resolution (scale 1), each with
//    fps: canvas frames drawn per second while playing (at 1x, or faster when the run has fewer
//    than 60 saved frames per second of playback, so that every display frame has a new saved
//    frame to draw), ticksPerSecond: requestAnimationFrame callbacks per second (headless
//    Chromium caps them at 60 even when nothing is drawn: idleTicksPerSecond, measured paused),
//    frameChanges: distinct saved frames drawn, scale: the playing resolution at the end,
//    pauseMs: from pause() to the second frame after it (the still view drawn again),
//    cpuMsPerFrame: CPU time [ms] of each kind of Chromium process (renderer: the page's
//    JavaScript, layout and the canvas's read-back; gpu-process: SwiftShader's WebGL and the
//    software compositor; browser) per drawn frame, from /proc: unlike fps, this hardly depends
//    on what else the machine runs;
//  - profile: medians over 60 consecutive saved frames shown as while playing, each timed in the
//    page: update (posing, colouring), render (three.js calls) and gpu (readPixels of one pixel,
//    which waits for the frame's GPU work; gl.finish does not in Chromium);
//  - pausedFrameMs: the same for a frame drawn paused (full quality: tubes, multisampling).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from '../tools/chromium_flags.mjs';

const [tendril, ...sizeArgs] = process.argv.slice(2);
const sizes = [];
const numbers = sizeArgs.length ? sizeArgs.map(Number) : [1000, 10000, 1000, 100];
for (let k = 0; k + 1 < numbers.length; k += 2) sizes.push([numbers[k], numbers[k + 1]]);
if (!tendril || sizes.length === 0 || numbers.some((n) => !(n >= 2)))
  throw new Error('usage: node perf.mjs TENDRIL [FRAMES NODES]... (each at least 2)');

function npyHeader(shape) {
  let h = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = Math.ceil((10 + h.length + 1) / 64) * 64;
  h = h.padEnd(total - 10 - 1, ' ') + '\n';
  const b = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(b);
  b.writeUInt16LE(h.length, 8);
  return Buffer.concat([b, Buffer.from(h, 'latin1')]);
}

function writeNpy(file, shape, frame) {  // frame(f, Float64Array) fills one frame
  const fd = openSync(file, 'w');
  writeSync(fd, npyHeader(shape));
  const per = shape.slice(1).reduce((a, b) => a * b, 1);
  const buf = new Float64Array(per);
  for (let f = 0; f < shape[0]; ++f) { frame(f, buf); writeSync(fd, new Uint8Array(buf.buffer)); }
  closeSync(fd);
}

function writeRun(run, F, N) {
  const E = N - 1, L = 1.0, dt = 1e-3;
  mkdirSync(run);
  writeNpy(join(run, 'frame_time.npy'), [F], (f, b) => { b[0] = f * dt; });
  writeNpy(join(run, 'positions.npy'), [F, N, 3], (f, b) => {
    for (let i = 0; i < N; ++i) {
      const s = (i / (N - 1)) * L;
      b[3 * i] = s; b[3 * i + 1] = 0.02 * Math.sin(12 * s - 40 * f * dt); b[3 * i + 2] = 0.02 * Math.cos(7 * s - 25 * f * dt);
    }
  });
  writeNpy(join(run, 'twists.npy'), [F, E], (f, b) => { for (let e = 0; e < E; ++e) b[e] = 0.5 * Math.sin(e / 300 + f * 0.05); });
  const arrays = [['frame_time', [F]], ['positions', [F, N, 3]], ['twists', [F, E]]].map(([name, shape]) =>
    ({ name, file: `${name}.npy`, dtype: 'float64', shape, first_axis: 'saved frame', unit: '', meaning: '' }));
  writeFileSync(join(run, 'run.json'), JSON.stringify({
    format: 'tendril-run', format_version: 1, tendril_version: 'perf', kind: 'rod', status: 'completed', message: '',
    units: 'SI', arrays,
    info: { num_nodes: N, num_edges: E, edges: Array.from({ length: E }, (_, e) => [e, e + 1]),
            rod_nodes: [Array.from({ length: N }, (_, i) => i)], energy_terms: [] },
    scene: { rods: [{ material: { radius: 0.002 } }] },
  }));
}

// CPU time [ms] (user + system) of the Chromium that this process started and its descendants,
// summed by process kind
const TICK_MS = 10;  // /proc/<pid>/stat counts in clock ticks of 1/100 s (USER_HZ on Linux)
function chromiumCpuMs() {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields from the 3rd on
      stats.set(Number(name), { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
    } catch { /* the process ended meanwhile */ }
  }
  const cmdline = (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const root = [...stats].find(([pid, s]) => s.ppid === process.pid && cmdline(pid).includes('chromium'))?.[0];
  const kinds = {};
  const visit = (pid) => {
    let kind = 'browser';
    try { kind = /--type=([\w-]+)/.exec(cmdline(pid))?.[1] ?? 'browser'; } catch { /* ended */ }
    kinds[kind] = (kinds[kind] ?? 0) + (stats.get(pid)?.ms ?? 0);
    for (const [child, s] of stats) if (s.ppid === pid) visit(child);
  };
  if (root === undefined) throw new Error('no Chromium process found');
  visit(root);
  return kinds;
}

async function measure(browser, F, N) {
  const dir = mkdtempSync(join(tmpdir(), 'tendril-perf-'));
  let viewer;
  try {
    const run = join(dir, 'wave');
    writeRun(run, F, N);
    const t0 = Date.now();
    viewer = spawn(tendril, ['view', run, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve) => viewer.stdout.on('data', (d) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d)); if (m) resolve(m[1]);
    }));
    const serverStartMs = Date.now() - t0;
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    // 1x plays the run in 5 s: below 60 saved frames per second, play faster (every display frame new)
    const speed = Math.max(1, Math.ceil((60 * 5) / F));
    const results = [], loadBefore = loadavg();
    for (let attempt = 0; attempt < 3; ++attempt) {
      const start = Date.now();
      await page.goto(url);
      await page.waitForFunction(() => window.__tendril?.ready, null, { timeout: 120000, polling: 10 });
      const openMs = Date.now() - start;
      await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 120000, polling: 10 });
      const allFramesMs = Date.now() - start;
      const errors = await page.evaluate(() => window.__tendril.errors);
      if (errors.length) throw new Error(errors.join('\n'));
      const idleTicksPerSecond = await page.evaluate(() => window.__tendril.measureIdle(2));
      await page.evaluate((s) => window.__tendril.setSpeed(s), speed);
      const playback = async (scale) => {
        const cpu0 = chromiumCpuMs();
        const play = await page.evaluate((s) => window.__tendril.measurePlayback(5, s), scale);
        const cpu1 = chromiumCpuMs();
        // pausing: the still view's shapes (a large run's tubes need the material frames) drawn
        const pauseMs = await page.evaluate(async () => {
          const t0 = performance.now();
          window.__tendril.pause();
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return performance.now() - t0;
        });
        const drawn = play.fps * play.seconds;
        return { ...play, pauseMs, cpuMsPerFrame: Object.fromEntries(Object.keys(cpu1).map((k) =>
          [k, +(((cpu1[k] - (cpu0[k] ?? 0)) / drawn).toFixed(2))])) };
      };
      const adaptive = await playback(null), fullResolution = await playback(1);
      const timings = await page.evaluate(() => window.__tendril.timings);
      const profile = await page.evaluate(() => window.__tendril.profilePlayback(60));
      results.push({ openMs, allFramesMs, timings, speed, idleTicksPerSecond, adaptive, fullResolution, profile });
    }
    await page.close();
    return { frames: F, nodes: N, loadAverage: [loadBefore, loadavg()].map((l) => l.map((v) => +v.toFixed(2))),
             serverStartMs, results };
  } finally {
    if (viewer) viewer.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  for (const [F, N] of sizes) console.log(JSON.stringify(await measure(browser, F, N), null, 1));
} finally {
  await browser.close();
}
