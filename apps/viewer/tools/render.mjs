// Renders the viewer page offscreen in headless Chromium (the system browser, no download) for
// `tendril render`: one PNG (of saved frame FRAME of the longest run, or at simulated time TIME),
// or a video piped into ffmpeg: one image per saved frame of the longest run or, with SPEED > 0
// (simulated seconds per video second), one per 1/FPS of video time from t = 0 to the longest run's
// end, each showing every run at or before its simulated time (saved frames repeat in slow motion).
// Usage: node render.mjs URL video|png OUT WIDTH HEIGHT FPS FRAME TIME SPEED CHROMIUM FFMPEG
// Exit codes: 0 done, 2 the page could not show a run or a bad option, 1 anything else.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { CHROMIUM_FLAGS } from './chromium_flags.mjs';

const [url, mode, out, width, height, fps, frameArg, timeArg, speedArg, chromiumPath, ffmpegPath] = process.argv.slice(2);

function fail(code, message) {
  console.error(`error: ${message}`);
  process.exit(code);
}

// playwright starts Chromium with a fresh temporary --user-data-dir and removes it on close
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
  await page.goto(url);
  await page.waitForFunction(() => window.__tendril && window.__tendril.loaded, null, { timeout: 120000 });
  const errors = await page.evaluate(() => window.__tendril.errors);
  if (errors.length) fail(2, errors.join('\n'));
  const colour = new URL(url).searchParams.get('colour');
  if (colour && (await page.evaluate(() => document.getElementById('colour').value)) !== colour)
    fail(2, `--colour: got '${colour}'; allowed: ${await page.evaluate(() =>
      Array.from(document.getElementById('colour').options).map((o) => o.value).filter(Boolean).join(', '))}`);
  const { frames, duration } = await page.evaluate(() => ({ frames: window.__tendril.runs()[window.__tendril.lead()].frames,
                                                              duration: window.__tendril.duration() }));
  const panels = page.locator('#panels');
  const shot = async (k) => {
    await page.evaluate((f) => window.__tendril.setFrame(f), k);
    return panels.screenshot({ type: 'png' });
  };
  const shotAt = async (t) => {
    await page.evaluate((t) => window.__tendril.setTime(t), t);
    return panels.screenshot({ type: 'png' });
  };
  const time = Number(timeArg), speed = Number(speedArg);
  if (mode === 'png' && Number.isFinite(time)) {
    writeFileSync(out, await shotAt(time));
    console.log(`t = ${time} s written to ${out}`);
  } else if (mode === 'png') {
    const k = Number(frameArg) < 0 ? frames - 1 : Number(frameArg);
    if (!(k >= 0 && k < frames)) fail(2, `--frame: got ${k}; allowed: 0 .. ${frames - 1}`);
    writeFileSync(out, await shot(k));
    console.log(`frame ${k} written to ${out}`);
  } else {
    // video frame j shows t_j = j speed / fps (up to the end): the video lasts duration / speed
    // plus one frame, the last showing the end
    const images = speed > 0 ? Math.ceil((duration * Number(fps)) / speed - 1e-9) + 1 : frames;
    const image = (j) => (speed > 0 ? shotAt(Math.min((j * speed) / Number(fps), duration)) : shot(j));
    const ffmpeg = spawn(ffmpegPath, ['-y', '-loglevel', 'error', '-f', 'image2pipe', '-framerate', fps, '-c:v', 'png',
      '-i', '-', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2', out],
      { stdio: ['pipe', 'inherit', 'inherit'] });
    const done = new Promise((resolve, reject) => { ffmpeg.on('exit', resolve); ffmpeg.on('error', reject); });
    for (let j = 0; j < images; ++j) {
      if (!ffmpeg.stdin.write(await image(j))) await new Promise((r) => ffmpeg.stdin.once('drain', r));
    }
    ffmpeg.stdin.end();
    const code = await done;
    if (code !== 0) fail(1, `ffmpeg exited with ${code}`);
    console.log(`${images} frames written to ${out}`);
  }
} finally {
  await browser.close();
}
