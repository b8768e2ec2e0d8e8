// Flags for the system Chromium in headless runs (tests, `tendril render`): no GPU (SwiftShader
// WebGL), no network besides the loopback page, no first-run or sync machinery. Playwright adds a
// fresh temporary --user-data-dir and removes it when the browser closes.
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader'];
