// Opening time and playback frame rate of the viewer on a large synthetic rod run, in headless
// Chromium (the same flags as the tests). Not a ctest: it writes ~330 MB and takes a minute.
// Usage: node perf.mjs TENDRIL [FRAMES=1000] [NODES=10000]
// The run: one rod of NODES nodes (a travelling wave on a straight line, radius 2 mm) with FRAMES
// saved frames, written in the tendril-run 1 format (positions, twists, frame_time).
// Prints: the server start (it reads and checks every array), the time from navigation to the
// first drawn frame (window.__tendril.ready: frame 0 shown, controls live), to every frame loaded
// (window.__tendril.loaded), and canvas frames drawn per second while playing.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from '../tools/chromium_flags.mjs';

const [tendril, framesArg = '1000', nodesArg = '10000'] = process.argv.slice(2);
const F = Number(framesArg), N = Number(nodesArg), E = N - 1;

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

const dir = mkdtempSync(join(tmpdir(), 'tendril-perf-'));
const run = join(dir, 'wave');
let viewer, browser;
try {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(run);
  const L = 1.0, dt = 1e-3;
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

  const t0 = Date.now();
  viewer = spawn(tendril, ['view', run, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => viewer.stdout.on('data', (d) => {
    const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d)); if (m) resolve(m[1]);
  }));
  const serverMs = Date.now() - t0;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const results = [];
  for (let attempt = 0; attempt < 3; ++attempt) {
    const start = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => window.__tendril?.ready, null, { timeout: 120000, polling: 10 });
    const openMs = Date.now() - start;
    await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 120000, polling: 10 });
    const allFramesMs = Date.now() - start;
    const errors = await page.evaluate(() => window.__tendril.errors);
    if (errors.length) throw new Error(errors.join('\n'));
    const play = await page.evaluate(() => window.__tendril.measurePlayback(5));
    const timings = await page.evaluate(() => window.__tendril.timings);
    results.push({ openMs, allFramesMs, timings, ...play });
  }
  console.log(JSON.stringify({ frames: F, nodes: N, serverStartMs: serverMs, results }, null, 1));
} finally {
  if (browser) await browser.close();
  if (viewer) viewer.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
