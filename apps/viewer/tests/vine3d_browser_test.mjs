// Browser test of 3D vine runs in `tendril view`, in headless Chromium (Debian's /usr/bin/chromium
// driven by playwright-core). On a 3D vine run with obstacles (a plane, a sphere, a box) it checks
// that:
//  - the run is shown as a 3D run (kind vine3d, perspective, a ground grid) with one node per joint
//    point of its centreline and the panel title counts its bodies;
//  - scrubbing to frame k draws centerline.npy's frame k (node positions read back from the drawn
//    instance matrices);
//  - the body shows: at the projected joint points at least 90 % of the pixels change when the body
//    is hidden;
//  - the obstacles show: at the projected centres of the sphere and the box (body hidden) at least
//    90 % of the pixels change when the obstacles are hidden;
//  - the contact-gap field at frame k is the distance of each joint point to the nearest obstacle
//    less the contact radius, computed here from the scene's plane and sphere and box in run.json.
// Usage: node vine3d_browser_test.mjs TENDRIL OUT_DIR RUN_DIR
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strict as assert } from 'node:assert';
import { parseNpy } from '../src/npy.js';
import { CHROMIUM_FLAGS } from '../tools/chromium_flags.mjs';

const [tendril, outDir, runDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const meta = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
const load = (name) => {
  const file = meta.arrays.find((a) => a.name === name).file;
  const b = readFileSync(join(runDir, file));
  return parseNpy(b.buffer.slice(b.byteOffset, b.byteOffset + b.length), file);
};
const centerline = load('centerline');
const [frames, points] = centerline.shape;
const vine = meta.scene.vine3d;

// distance [m] of point p to an obstacle of the scene (0 inside): plane, sphere or box (rotation
// vector about one of the world axes only, as in the test scene)
function distance(o, p) {
  const d = [0, 1, 2].map((c) => p[c] - (o.shape === 'plane' ? o.point[c] : o.center[c]));
  if (o.shape === 'plane') {
    const l = Math.hypot(...o.normal);
    return Math.max(0, (o.normal[0] * d[0] + o.normal[1] * d[1] + o.normal[2] * d[2]) / l);
  }
  if (o.shape === 'sphere') return Math.max(0, Math.hypot(...d) - o.radius);
  const r = o.rotation ?? [0, 0, 0];
  const axis = r.findIndex((v) => v !== 0);
  let local = d;
  if (axis >= 0) {  // rotate d by -angle about that axis
    const a = -r[axis], c = Math.cos(a), s = Math.sin(a), [i, j] = [[1, 2], [2, 0], [0, 1]][axis];
    local = d.slice();
    local[i] = c * d[i] - s * d[j];
    local[j] = s * d[i] + c * d[j];
  }
  return Math.hypot(...local.map((v, c) => Math.max(Math.abs(v) - o.half_extents[c], 0)));
}

function startViewer(dirs) {
  const p = spawn(tendril, ['view', ...dirs, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    p.stdout.on('data', (d) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d));
      if (m) resolve({ process: p, url: m[1] });
    });
    p.on('exit', (code) => reject(new Error(`tendril view exited with ${code}: ${stderr}`)));
  });
}

// fraction of the canvas pixels `at` that change when `hide` hides something (in one task)
const changedBy = (page, at, hide, show) => page.evaluate(([at, hide, show]) => {
  const t = window.__tendril;
  const before = t.pixels(0, at);
  eval(hide);
  const after = t.pixels(0, at);
  eval(show);
  return before.filter((c, k) => c.some((v, j) => Math.abs(v - after[k][j]) > 8)).length / at.length;
}, [at, hide, show]);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
let viewer = null;
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  viewer = await startViewer([runDir]);
  await page.goto(viewer.url);
  await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 60000 });
  assert.deepEqual(await page.evaluate(() => window.__tendril.errors), []);
  const [shown] = await page.evaluate(() => window.__tendril.runs());
  assert.equal(shown.kind, 'vine3d');
  assert.equal(shown.nodes, points);
  assert.equal(shown.frames, frames);
  assert.ok((await page.textContent('.panel')).includes(`${points - 1} bodies`));
  assert.notEqual(await page.evaluate(() => window.__tendril.grid(0)), null, 'a 3D run has a ground grid');

  const last = frames - 1;
  for (const k of [0, Math.floor(frames / 2), last]) {
    await page.evaluate((k) => window.__tendril.setFrame(k), k);
    const drawn = await page.evaluate(() => window.__tendril.drawnPositions(0));
    let worst = 0;
    for (let j = 0; j < 3 * points; ++j) worst = Math.max(worst, Math.abs(drawn[j] - centerline.data[3 * points * k + j]));
    assert.ok(worst <= 1e-6, `frame ${k}: drawn joint points differ from centerline.npy by ${worst} m`);
  }
  console.log(`scrubbing to frames 0, ${Math.floor(frames / 2)}, ${last} draws centerline.npy's joint points`);

  const joints = await page.evaluate((n) => Array.from({ length: n }, (_, k) => window.__tendril.project(0, k)), points);
  const body = await changedBy(page, joints, 't.setBodyVisible(0, false)', 't.setBodyVisible(0, true)');
  console.log(`the body shows at ${(100 * body).toFixed(1)} % of its ${points} joint points`);
  assert.ok(body >= 0.9, `the body shows at only ${body} of its joint points`);

  const solids = vine.obstacles.filter((o) => o.shape !== 'plane');
  assert.ok(solids.length >= 2, 'the test run needs a sphere and a box');
  const centres = await page.evaluate((cs) => cs.map((c) => window.__tendril.projectPoint(0, c)), solids.map((o) => o.center));
  await page.evaluate(() => window.__tendril.setBodyVisible(0, false));
  const obstacles = await changedBy(page, centres, 't.setObstaclesVisible(0, false)', 't.setObstaclesVisible(0, true)');
  await page.evaluate(() => window.__tendril.setBodyVisible(0, true));
  console.log(`the obstacles show at ${(100 * obstacles).toFixed(1)} % of the ${centres.length} centres`);
  assert.ok(obstacles >= 0.9, `the obstacles show at only ${obstacles} of their centres`);

  const radius = vine.contact?.radius ?? vine.tube_diameter / 2;
  for (const k of [0, last]) {
    const gap = await page.evaluate((k) => window.__tendril.fieldValues(0, 'contact_gap', k), k);
    for (let i = 0; i < points; ++i) {
      const p = [0, 1, 2].map((c) => centerline.data[3 * (points * k + i) + c]);
      const want = Math.min(...vine.obstacles.map((o) => distance(o, p))) - radius;
      assert.ok(Math.abs(gap[i] - want) <= 1e-9, `contact gap at joint ${i}, frame ${k}: ${gap[i]}, computed ${want}`);
    }
  }
  console.log('the contact-gap field is each joint point\'s distance to the obstacles less the contact radius');
  await page.screenshot({ path: join(outDir, 'vine3d.png') });
  assert.deepEqual(pageErrors, []);
} finally {
  if (viewer) viewer.process.kill('SIGTERM');
  await browser.close();
}
