// Bundles the viewer into OUT_DIR (default dist/): index.html, viewer.css, viewer.js (three.js
// included) for `tendril view`, and render.mjs with playwright-core for `tendril render`.
// Run by the CMake target tendril_viewer; no network at build or run time.
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, 'dist');
mkdirSync(out, { recursive: true });
await build({ entryPoints: [join(here, 'src/main.js')], bundle: true, format: 'esm', minify: true,
              outfile: join(out, 'viewer.js'), logLevel: 'warning', legalComments: 'linked' });
for (const f of ['index.html', 'viewer.css']) copyFileSync(join(here, f), join(out, f));
// the renderer runs in node: its scripts as they are, next to the one package it imports
// (playwright-core has no dependencies; bundling it breaks its file lookups)
for (const f of ['render.mjs', 'chromium_flags.mjs']) copyFileSync(join(here, 'tools', f), join(out, f));
rmSync(join(out, 'node_modules'), { recursive: true, force: true });
cpSync(join(here, 'node_modules/playwright-core'), join(out, 'node_modules/playwright-core'), { recursive: true });
