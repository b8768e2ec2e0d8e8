// Browser test of `tendril view` in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core; no browser download). On example runs shown side by side (a rod, a rod network,
// the vine, a rod on the ground, the parachute with its sub-pixel ropes, the manta ray (shells
// without rods), a synthetic shell) it checks
// that:
//  - every canvas shows its body: at the projected node positions at least 90 % of the pixels
//    change when the body is hidden (the body is drawn there, not just background or grid);
//  - play advances the time read-out, pause stops it;
//  - paused, the still canvas is multisampled at full resolution; playing, the playing canvas in
//    its place is not multisampled and shows the body; no WebGL context is lost; nine panels (too
//    many for two contexts each) play on their still canvases and lose none;
//  - scrubbing (the slider's input event) to frame k draws frame k's node positions (read back
//    from the drawn instance matrices, compared with the .npy files parsed here); the slider steps
//    through the frames of the longest run, and playing reaches its last frame while the runs that
//    ended earlier show their last frames;
//  - colouring by a field shows a legend with its name;
//  - in a rod run with contact the ground is drawn below the body, and the contact-gap field's
//    smallest value per frame equals the run's recorded contact_min_gap;
//  - every 3D run has a ground grid at a round spacing (1, 2, 5 x 10^k m, named in the panel's note)
//    with its lines' coordinates in metres and x, y, z axes in metres; on the contact run it lies on
//    the ground and its lines show where the test projects them;
//  - the deformation scale factor s draws x_i(0) + s (x_i(t) - x_i(0)) (computed here from the .npy
//    files) and the note shows it;
//  - the contact run's contact force arrows: one per node with a force in contact_forces.npy, each
//    tip at x_i + c f_i with one scale c, and drawn where the test projects the tips; its speed and
//    contact force fields are |v_i| and |f_i| of the saved velocities and contact forces;
//  - a damaged run (truncated positions.npy) shows a clear error message in the page.
// Screenshots go to OUT_DIR (test artefacts in the build tree).
//  - a run above 2000 nodes plays as line segments at the saved positions of the frame played,
//    and shows tubes again when paused;
// Usage: node browser_test.mjs TENDRIL OUT_DIR [--large RUN_DIR] RUN_DIR... (the last run is copied
// and damaged)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, truncateSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import { strict as assert } from 'node:assert';
import { parseNpy } from '../src/npy.js';
import { CHROMIUM_FLAGS } from '../tools/chromium_flags.mjs';

const [tendril, outDir, ...args] = process.argv.slice(2);
// --large RUN: a run above 2000 nodes for the line playback check
const large = args.includes('--large') ? args[args.indexOf('--large') + 1] : null;
const runs = args.filter((a, k) => a !== '--large' && args[k - 1] !== '--large');
mkdirSync(outDir, { recursive: true });

function startViewer(dirs) {
  const p = spawn(tendril, ['view', ...dirs, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    p.stdout.on('data', (d) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d));
      if (m) resolve({ process: p, url: m[1], stderr: () => stderr });
    });
    p.on('exit', (code) => reject(new Error(`tendril view exited with ${code}: ${stderr}`)));
  });
}

function loadArray(dir, name) {
  const meta = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  const file = meta.arrays.find((a) => a.name === name).file;
  const b = readFileSync(join(dir, file));
  return parseNpy(b.buffer.slice(b.byteOffset, b.byteOffset + b.length), file);
}

// fraction of the canvas pixels `points` of panel i that change when `hide` hides something
const changedBy = (page, i, points, hide, show) => page.evaluate(([i, points, hide, show]) => {
  const t = window.__tendril;
  const before = t.pixels(i, points);
  eval(hide);
  const after = t.pixels(i, points);
  eval(show);
  return before.filter((c, k) => c.some((v, j) => Math.abs(v - after[k][j]) > 8)).length / points.length;
}, [i, points, hide, show]);

function loadPositions(dir) {
  const meta = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  const file = (n) => meta.arrays.find((a) => a.name === n).file;
  const read = (n) => { const b = readFileSync(join(dir, file(n))); return parseNpy(b.buffer.slice(b.byteOffset, b.byteOffset + b.length), n); };
  const times = read('frame_time').data;
  if (meta.kind === 'vine') {
    const c = read('centerline');
    const [F, P] = c.shape;
    const x = new Float64Array(F * P * 3);
    for (let i = 0; i < F * P; ++i) { x[3 * i] = c.data[2 * i]; x[3 * i + 1] = c.data[2 * i + 1]; }
    return { times, x, nodes: P };
  }
  const p = read('positions');
  return { times, x: p.data, nodes: p.shape[1] };
}

let page = null;

// every 3D panel: a grid at a round spacing, named in the note, labelled in metres, with axes
async function checkGridsAndAxes() {
  const shown = await page.evaluate(() => window.__tendril.runs());
  for (let i = 0; i < shown.length; ++i) {
    const grid = await page.evaluate((i) => window.__tendril.grid(i), i);
    if (shown[i].kind === 'vine') { assert.equal(grid, null); continue; }
    const mantissa = grid.spacing / 10 ** Math.floor(Math.log10(grid.spacing) + 1e-9);
    assert.ok([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `${shown[i].name}: grid spacing ${grid.spacing} m is not round`);
    for (const axis of ['x [m]', 'y [m]', 'z [m]']) assert.ok(grid.labels.includes(axis), `${shown[i].name}: no axis ${axis}`);
    const coordinates = grid.labels.filter((l) => !l.includes('['));
    assert.ok(coordinates.length >= 4, `${shown[i].name}: only ${coordinates.length} grid labels`);
    for (const l of coordinates) {
      assert.match(l, /^-?\d+(\.\d+)? m$/);
      const v = parseFloat(l);
      assert.ok(Math.abs(v / grid.spacing - Math.round(v / grid.spacing)) < 1e-6, `${shown[i].name}: label ${l} is off the grid lines`);
    }
    const note = await page.evaluate((i) => window.__tendril.note(i), i);
    assert.match(note, /grid \S+ m/);
    assert.ok(Math.abs(parseFloat(note.split('grid ')[1]) - grid.spacing) <= 1e-9 * grid.spacing, `note "${note}", spacing ${grid.spacing}`);
  }
  console.log('every 3D panel has a grid at a round spacing with coordinates in metres and x, y, z axes [m]');
}

// the contact run's grid lies on the ground (lifted a hair) and shows at its line crossings in view
async function checkGridOnTheGround(i, pz, x, n, f0) {
  const grid = await page.evaluate((i) => window.__tendril.grid(i), i);
  let size = 0;
  for (let a = 0; a < n; ++a) for (let b = 0; b < n; ++b) size = Math.max(size, Math.hypot(...[0, 1, 2].map((c) => x[(f0 * n + a) * 3 + c] - x[(f0 * n + b) * 3 + c])));
  assert.ok(grid.z > pz && grid.z - pz < 0.01 * size, `grid at z = ${grid.z}, ground at ${pz}`);
  const crossings = [];
  for (let u = grid.x0; u <= grid.x1 + 1e-12; u += grid.spacing)
    for (let v = grid.y0; v <= grid.y1 + 1e-12; v += grid.spacing) crossings.push([u, v, grid.z]);
  const w = await page.evaluate((i) => window.__tendril.canvas(i), i);
  const points = (await page.evaluate(([i, ps]) => ps.map((p) => window.__tendril.projectPoint(i, p)), [i, crossings]))
    .filter(([px, py]) => px > 2 && py > 2 && px < w.width - 3 && py < w.height - 3);
  await page.evaluate((i) => { window.__tendril.setBodyVisible(i, false); window.__tendril.setArrowsVisible(i, false); }, i);
  const changed = await changedBy(page, i, points, 't.setGridVisible(i, false)', 't.setGridVisible(i, true)');
  await page.evaluate((i) => { window.__tendril.setBodyVisible(i, true); window.__tendril.setArrowsVisible(i, true); }, i);
  console.log(`contact: the grid (${grid.spacing} m) shows at ${(100 * changed).toFixed(1)} % of its ${points.length} crossings in view`);
  assert.ok(points.length >= 10 && changed >= 0.8, `the grid shows at only ${changed} of ${points.length} crossings`);
}

// arrows of the contact forces at the frame with the most nodes in contact
async function checkContactArrows(i, meta) {
  assert.ok(meta.arrays.some((a) => a.name === 'contact_forces'), 'the contact run records no contact_forces');
  const f = loadArray(runs[i], 'contact_forces'), x = loadArray(runs[i], 'positions'), times = loadArray(runs[i], 'frame_time').data;
  const [F, n] = f.shape;
  const pushed = (k) => Array.from({ length: n }, (_, a) => Math.hypot(...[0, 1, 2].map((c) => f.data[(k * n + a) * 3 + c])) > 0);
  let frame = 0;
  for (let k = 0; k < F; ++k) if (pushed(k).filter(Boolean).length > pushed(frame).filter(Boolean).length) frame = k;
  const expected = pushed(frame).filter(Boolean).length;
  assert.ok(expected > 0, 'no frame of the contact run has a contact force: the arrow check is vacuous');
  await page.evaluate((t) => window.__tendril.setTime(t), times[frame]);
  assert.equal(await page.evaluate((i) => window.__tendril.frame(i), i), frame);
  const arrows = await page.evaluate((i) => window.__tendril.contactArrows(i), i);
  assert.equal(arrows.count, expected);
  assert.ok(arrows.scale > 0);
  let worst = 0, scale = 0;
  for (let j = 0; j < 3 * n; ++j) {
    const tip = x.data[frame * 3 * n + j] + arrows.scale * f.data[frame * 3 * n + j];
    worst = Math.max(worst, Math.abs(arrows.tips[j] - tip));
    scale = Math.max(scale, Math.abs(tip));
  }
  assert.ok(worst <= 1e-12 * scale + 1e-15, `arrow tips differ from x + c f by ${worst} m`);
  // the speed and contact force fields: |v_i| of velocities.npy and |f_i| of contact_forces.npy
  const v = loadArray(runs[i], 'velocities');
  for (const [key, a] of [['speed', v], ['contact_force', f]]) {
    const values = await page.evaluate(([i, key, k]) => window.__tendril.fieldValues(i, key, k), [i, key, frame]);
    const want = Array.from({ length: n }, (_, j) => Math.hypot(...[0, 1, 2].map((c) => a.data[(frame * n + j) * 3 + c])));
    assert.ok(want.some((w) => w > 0), `${key}: all zero at frame ${frame}`);
    values.forEach((got, j) => assert.ok(Math.abs(got - want[j]) <= 1e-12 * Math.max(...want), `${key} at node ${j}: ${got}, saved ${want[j]}`));
  }
  // drawn: at the tips of the arrows longer than the body's radius, with the body hidden
  const radius = meta.scene.rods[0].material.radius;
  const tips = [];
  for (let a = 0; a < n; ++a)
    if (arrows.scale * Math.hypot(...[0, 1, 2].map((c) => f.data[(frame * n + a) * 3 + c])) > 4 * radius)
      tips.push(arrows.tips.slice(3 * a, 3 * a + 3).map((v, c) => v - 0.05 * (v - x.data[(frame * n + a) * 3 + c])));
  const points = await page.evaluate(([i, ps]) => ps.map((p) => window.__tendril.projectPoint(i, p)), [i, tips]);
  await page.evaluate((i) => window.__tendril.setBodyVisible(i, false), i);
  const changed = await changedBy(page, i, points, 't.setArrowsVisible(i, false)', 't.setArrowsVisible(i, true)');
  await page.evaluate((i) => window.__tendril.setBodyVisible(i, true), i);
  await page.screenshot({ path: join(outDir, 'contact_force_arrows.png') });
  console.log(`contact: ${arrows.count} contact force arrows at frame ${frame} (c = ${arrows.scale.toPrecision(3)} m/N), ` +
              `drawn at ${(100 * changed).toFixed(1)} % of the ${points.length} long ones' heads`);
  assert.ok(points.length > 0 && changed >= 0.8, `the arrows show at only ${changed} of ${points.length} heads`);
}

// deformation scale 1000: each panel draws x(0) + 1000 (x(t) - x(0)) and says so in its note
async function checkDeformationScale(data) {
  const s = 1000;
  await page.evaluate((s) => { window.__tendril.setDeformationScale(s); window.__tendril.setTime(window.__tendril.duration()); }, s);
  for (let i = 0; i < data.length; ++i) {
    assert.ok((await page.evaluate((i) => window.__tendril.note(i), i)).includes(`deformation ×${s}`));
    const f = await page.evaluate((i) => window.__tendril.frame(i), i);
    const drawn = await page.evaluate((i) => window.__tendril.drawnPositions(i), i);
    const { x, nodes } = data[i];
    let worst = 0, scale = 0;
    for (let j = 0; j < 3 * nodes; ++j) {
      const want = x[j] + s * (x[f * 3 * nodes + j] - x[j]);
      worst = Math.max(worst, Math.abs(drawn[j] - want));
      scale = Math.max(scale, Math.abs(want));
    }
    assert.ok(worst <= 1e-6 * scale + 1e-9, `deformation x${s}, panel ${i}: drawn positions differ by ${worst}`);
  }
  await page.screenshot({ path: join(outDir, 'deformation_x1000.png') });
  await page.evaluate(() => window.__tendril.setDeformationScale(1));
  assert.ok(!(await page.evaluate(() => window.__tendril.note(0))).includes('deformation'));
  console.log(`deformation scale ${s}: every panel drew x(0) + ${s} (x(t) - x(0))`);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
const viewers = [];
let scratch = null;
try {
  page = await browser.newPage({ viewport: { width: 1500, height: 560 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const viewer = await startViewer(runs);
  viewers.push(viewer);
  await page.goto(viewer.url);
  await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 60000 });
  assert.deepEqual(await page.evaluate(() => window.__tendril.errors), []);
  const shown = await page.evaluate(() => window.__tendril.runs());
  assert.equal(shown.length, runs.length);
  await page.screenshot({ path: join(outDir, 'side_by_side_frame0.png') });

  // the canvas shows each body
  // fraction of panel i's node pixels that change when its body is hidden (all in one task, so a
  // playing panel draws the same frame throughout)
  const bodyShows = (i) => page.evaluate(([i, n]) => {
    const t = window.__tendril;
    const points = Array.from({ length: n }, (_, k) => t.project(i, k));
    const withBody = t.pixels(i, points);
    t.setBodyVisible(i, false);
    const without = t.pixels(i, points);
    t.setBodyVisible(i, true);
    return withBody.filter((c, k) => c.some((v, j) => Math.abs(v - without[k][j]) > 8)).length / n;
  }, [i, shown[i].nodes]);
  for (let i = 0; i < runs.length; ++i) {
    const changed = await bodyShows(i);
    console.log(`${shown[i].name}: ${(100 * changed).toFixed(1)} % of ${shown[i].nodes} node pixels show the body`);
    assert.ok(changed >= 0.9, `${shown[i].name}: only ${changed} of the node pixels show the body`);
  }

  // paused: the still canvas, multisampled, at the page's full resolution; playing: the playing
  // canvas on top of it, not multisampled, and it shows the body too
  const still = await page.evaluate(() => window.__tendril.canvas(0));
  const ratio = await page.evaluate(() => window.devicePixelRatio);
  assert.deepEqual([still.role, still.antialias, still.visible], ['still', true, true]);
  assert.deepEqual([still.width, still.height], [Math.floor(still.clientWidth * ratio), Math.floor(still.clientHeight * ratio)]);
  await page.evaluate(() => window.__tendril.play());
  const playing = await page.evaluate(() => window.__tendril.canvas(0));
  assert.deepEqual([playing.role, playing.antialias, playing.visible], ['playing', false, true]);
  const changedPlaying = await bodyShows(0);
  console.log(`playing ${shown[0].name} on a ${playing.width} x ${playing.height} canvas: ${(100 * changedPlaying).toFixed(1)} % of the node pixels show the body`);
  assert.ok(changedPlaying >= 0.9, `playing: only ${changedPlaying} of the node pixels show the body`);
  await page.evaluate(() => window.__tendril.pause());
  assert.deepEqual(await page.evaluate(() => [window.__tendril.canvas(0).role, window.__tendril.canvas(0).visible]), ['still', true]);
  await page.evaluate(() => window.__tendril.setFrame(0));
  for (let i = 0; i < runs.length; ++i) assert.equal(await page.evaluate((i) => window.__tendril.canvas(i).lost, i), false);

  // play advances the read-out, pause stops it
  const before = await page.evaluate(() => [window.__tendril.time(), window.__tendril.readout()]);
  await page.click('#play');
  await page.waitForTimeout(1500);
  await page.click('#play');
  const after = await page.evaluate(() => [window.__tendril.time(), window.__tendril.readout()]);
  console.log(`play: "${before[1]}" -> "${after[1]}"`);
  assert.ok(after[0] > before[0] && after[1] !== before[1], 'play did not advance the time read-out');
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__tendril.time()), after[0], 'pause did not stop the clock');

  // scrubbing to frame k of the longest run draws frame k (it leads the clock; the others show the
  // same time, a run that ended its last frame)
  const data = runs.map(loadPositions);
  const end = (d) => d.times[d.times.length - 1];
  const longest = data.reduce((best, d, i) => (end(d) > end(data[best]) ? i : best), 0);
  assert.ok(data.some((d) => end(d) < end(data[longest])), 'the runs all last as long: the one clock is not tested');
  const frames = shown[longest].frames;
  assert.equal(await page.evaluate(() => Number(document.getElementById('scrub').max)), frames - 1,
               'the slider does not reach the end of the longest run');
  for (const k of [frames - 1, Math.floor(frames / 2), 0]) {
    await page.evaluate((k) => { const s = document.getElementById('scrub'); s.value = String(k); s.dispatchEvent(new Event('input')); }, k);
    const t = await page.evaluate(() => window.__tendril.time());
    assert.equal(t, data[longest].times[k]);
    assert.match(await page.evaluate(() => window.__tendril.readout()), new RegExp(`frame ${k} / ${frames - 1}`));
    for (let i = 0; i < runs.length; ++i) {
      let f = 0;
      while (f + 1 < data[i].times.length && data[i].times[f + 1] <= t + 1e-12) ++f;
      assert.equal(await page.evaluate((i) => window.__tendril.frame(i), i), f);
      const drawn = await page.evaluate((i) => window.__tendril.drawnPositions(i), i);
      const { x, nodes } = data[i];
      let worst = 0, scale = 0;
      for (let j = 0; j < 3 * nodes; ++j) {
        worst = Math.max(worst, Math.abs(drawn[j] - x[f * 3 * nodes + j]));
        scale = Math.max(scale, Math.abs(x[f * 3 * nodes + j]));
      }
      // float32 instance matrices: a few ulps of the largest coordinate
      assert.ok(worst <= 1e-6 * scale + 1e-9, `${shown[i].name} frame ${f}: drawn positions differ by ${worst}`);
      // and frame k differs from frame 0 where the body moved, so the check is not vacuous
    }
    await page.screenshot({ path: join(outDir, `scrub_frame${k}.png`) });
  }
  const moved = data[longest].x.slice(-3 * data[longest].nodes).some((v, j) => Math.abs(v - data[longest].x[j]) > 1e-6);
  assert.ok(moved, 'the lead run does not move: scrubbing would not be tested');

  // playing runs on to the end of the longest run: its last frame is shown while the runs that
  // ended earlier hold their last frames
  {
    await page.evaluate(() => { window.__tendril.setFrame(0); window.__tendril.setSpeed(4); window.__tendril.play(); });
    const last = data[longest].times.length - 1;
    const atEnd = await page.waitForFunction(([i, f]) => window.__tendril.frame(i) === f &&
                                               window.__tendril.runs().map((_, j) => window.__tendril.frame(j)),
                                             [longest, last], { timeout: 20000, polling: 'raf' });
    const held = await atEnd.jsonValue();
    await page.evaluate(() => { window.__tendril.pause(); window.__tendril.setSpeed(1); });
    data.forEach((d, i) => assert.equal(held[i], d.times.length - 1, `${shown[i].name} does not hold its last frame at the clock's end`));
    console.log(`one clock: played to ${end(data[longest])} s (${shown[longest].name}, the longest run); ` +
                `runs ending at ${data.map(end).join(', ')} s each showed its last frame`);
  }

  // colour by twist: legend with its name
  await page.selectOption('#colour', 'speed');
  const legend = await page.evaluate(() => Array.from(document.querySelectorAll('.legend')).filter((l) => !l.hidden).map((l) => l.textContent));
  assert.equal(legend.length, runs.length);
  assert.ok(legend.every((l) => l.includes('speed [m/s]')), legend.join(' | '));
  await page.screenshot({ path: join(outDir, 'coloured_by_speed.png') });
  assert.deepEqual(pageErrors, []);

  // rod runs with contact: the ground is drawn where it is, and the contact-gap field agrees with the
  // run's own record of the smallest gap (contact_min_gap.npy; the fixture has no self-contact, so
  // that is the nodes' gap to the ground)
  for (let i = 0; i < runs.length; ++i) {
    const meta = JSON.parse(readFileSync(join(runs[i], 'run.json'), 'utf8'));
    if (!meta.scene?.contact) continue;
    assert.equal(meta.scene.contact.self?.enabled, false, 'the contact fixture must run without self-contact');
    const file = meta.arrays.find((a) => a.name === 'contact_min_gap').file;
    const b = readFileSync(join(runs[i], file));
    const minGap = parseNpy(b.buffer.slice(b.byteOffset, b.byteOffset + b.length), file).data;
    let checked = 0;
    for (let f = 0; f < minGap.length; ++f) {
      const gaps = await page.evaluate(([i, f]) => window.__tendril.fieldValues(i, 'contact_gap', f), [i, f]);
      const viewerMin = Math.min(...gaps);
      if (!Number.isFinite(minGap[f])) continue;  // nothing within reach at this frame
      assert.ok(Math.abs(viewerMin - minGap[f]) <= 1e-12 + 1e-9 * Math.abs(minGap[f]),
                `${shown[i].name} frame ${f}: viewer's smallest contact gap ${viewerMin}, run's ${minGap[f]}`);
      ++checked;
    }
    console.log(`${shown[i].name}: contact gap agrees with contact_min_gap at ${checked} of ${minGap.length} frames`);
    assert.ok(checked > 0, 'no frame with a finite contact_min_gap: the gap check is vacuous');
    // the ground below every node, with the body hidden: drawn when shown, background when hidden
    const ground = meta.scene.contact.ground ?? {};
    assert.deepEqual(ground.normal ?? [0, 0, 1], [0, 0, 1], 'the fixture\'s ground must be a plane z = const');
    const pz = (ground.point ?? [0, 0, 0])[2];
    const f0 = await page.evaluate((i) => window.__tendril.frame(i), i);
    const x = data[i].x, n = data[i].nodes;
    const points = await page.evaluate(([i, feet]) => feet.map((p) => window.__tendril.projectPoint(i, p)),
                                       [i, Array.from({ length: n }, (_, k) => [x[(f0 * n + k) * 3], x[(f0 * n + k) * 3 + 1], pz])]);
    // (the grid on the ground and the contact force arrows hidden too)
    await page.evaluate((i) => ['setBodyVisible', 'setGridVisible', 'setArrowsVisible'].forEach((f) => window.__tendril[f](i, false)), i);
    const withGround = await page.evaluate(([i, pts]) => window.__tendril.pixels(i, pts), [i, points]);
    await page.evaluate((i) => window.__tendril.setObstaclesVisible(i, false), i);
    const without = await page.evaluate(([i, pts]) => window.__tendril.pixels(i, pts), [i, points]);
    await page.evaluate((i) => ['setObstaclesVisible', 'setBodyVisible', 'setGridVisible', 'setArrowsVisible'].forEach((f) => window.__tendril[f](i, true)), i);
    const changed = withGround.filter((c, k) => c.some((v, j) => Math.abs(v - without[k][j]) > 8)).length / n;
    console.log(`${shown[i].name}: the ground shows at ${(100 * changed).toFixed(1)} % of the points below the nodes`);
    assert.ok(changed >= 0.9, `${shown[i].name}: the ground shows at only ${changed} of the points below the nodes`);
    await page.selectOption('#colour', 'contact_gap');
    await page.screenshot({ path: join(outDir, 'coloured_by_contact_gap.png') });
    await checkGridOnTheGround(i, pz, x, n, f0);
    await checkContactArrows(i, meta);
  }
  await checkGridsAndAxes();
  await checkDeformationScale(data);

  // a large run (above 2000 nodes) plays as lines that show the frame being played, and is drawn
  // as tubes again when paused
  if (large) {
    const big = await startViewer([large]);
    viewers.push(big);
    await page.goto(big.url);
    await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 60000 });
    const { x, nodes } = loadPositions(large);
    assert.ok(nodes > 2000, `the large fixture has only ${nodes} nodes`);
    await page.evaluate(() => window.__tendril.play());
    let seen = new Set();
    for (let k = 0; k < 20 && seen.size < 3; ++k) {
      const { mode, f, drawn } = await page.evaluate(() => ({ mode: window.__tendril.drawMode(0), f: window.__tendril.frame(0),
                                                                drawn: window.__tendril.drawnPositions(0) }));
      assert.equal(mode, 'lines');
      let worst = 0;
      for (let j = 0; j < 3 * nodes; ++j) worst = Math.max(worst, Math.abs(drawn[j] - x[f * 3 * nodes + j]));
      assert.ok(worst <= 1e-6, `playing frame ${f}: lines differ from the saved positions by ${worst}`);
      seen.add(f);
      await page.waitForTimeout(100);
    }
    await page.evaluate(() => window.__tendril.pause());
    assert.equal(await page.evaluate(() => window.__tendril.drawMode(0)), 'tubes');
    console.log(`large run: lines matched the saved positions at frames ${[...seen].join(', ')} while playing`);
    assert.ok(seen.size >= 2, 'playback of the large run did not advance');
  }

  // nine panels: too many for two WebGL contexts each (Chromium keeps 16 per page), so they play on
  // their still canvases, and no context is lost
  {
    const many = await startViewer(Array(9).fill(runs[0]));
    viewers.push(many);
    await page.goto(many.url);
    await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 60000 });
    assert.deepEqual(await page.evaluate(() => window.__tendril.errors), []);
    await page.evaluate(() => window.__tendril.play());
    await page.waitForTimeout(300);
    const views = await page.evaluate(() => window.__tendril.runs().map((_, i) => window.__tendril.canvas(i)));
    await page.evaluate(() => window.__tendril.pause());
    assert.equal(views.length, 9);
    for (const v of views) assert.deepEqual([v.role, v.visible, v.lost], ['still', true, false]);
    console.log('nine panels: played on their still canvases, no WebGL context lost');
  }

  // a damaged run: clear message in the page (and on the CLI, checked by check_view_server.py)
  scratch = join(outDir, 'damaged_run');
  rmSync(scratch, { recursive: true, force: true });
  cpSync(runs[runs.length - 1], scratch, { recursive: true });
  const meta = JSON.parse(readFileSync(join(scratch, 'run.json'), 'utf8'));
  const victim = join(scratch, meta.arrays[1].file);
  truncateSync(victim, Math.floor(statSync(victim).size / 2));
  const damaged = await startViewer([scratch]);
  viewers.push(damaged);
  await page.goto(damaged.url);
  await page.waitForFunction(() => window.__tendril?.loaded, null, { timeout: 60000 });
  const message = await page.textContent('.panel .message.error');
  console.log(`damaged run, page says: ${message}`);
  assert.ok(message.includes(basename(victim)) && message.includes('truncated'), message);
  await page.screenshot({ path: join(outDir, 'damaged_run.png') });
  writeFileSync(join(outDir, 'README.txt'), 'Screenshots written by apps/viewer/tests/browser_test.mjs\n');
  console.log(`screenshots in ${outDir}`);
} finally {
  for (const v of viewers) v.process.kill('SIGTERM');
  await browser.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
