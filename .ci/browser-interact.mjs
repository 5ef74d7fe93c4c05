// Drives a report in headless chromium through the DevTools protocol, over
// --remote-debugging-pipe (no WebSocket, no npm package): it zooms the
// Gantt chart with the wheel, hovers a job, resets the view with a
// double-click, and watches every request the page makes.
//
//   node browser-interact.mjs REPORT.html JOBS
//
// It checks that zooming in draws fewer jobs over a shorter span, that
// hovering a drawn job shows its id, user, times and wait, that a
// double-click draws all JOBS again, and that the page requested nothing
// but itself (Network.requestWillBeSent: only the file:// page).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [page, jobsArg] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
const chrome = spawn('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--user-data-dir=${profile}`, '--window-size=1400,1300', '--remote-debugging-pipe', 'about:blank'],
{ stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
const toChrome = chrome.stdio[3], fromChrome = chrome.stdio[4];

let next = 1, buf = '';
const waiting = new Map(), listeners = [];
fromChrome.on('data', (d) => {
  buf += d.toString();
  let i;
  while ((i = buf.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (msg.id && waiting.has(msg.id)) {
      const { ok, fail } = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) fail(new Error(JSON.stringify(msg.error))); else ok(msg.result);
    } else if (msg.method) listeners.forEach((f) => f(msg));
  }
});
function send(method, params = {}, sessionId) {
  const id = next++;
  toChrome.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((ok, fail) => waiting.set(id, { ok, fail }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const failures = [];
function check(what, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${detail}`);
  if (!ok) failures.push(what);
}

try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  const requests = [];
  listeners.push((m) => { if (m.sessionId === sessionId && m.method === 'Network.requestWillBeSent') requests.push(m.params.request.url); });
  await s('Network.enable');
  await s('Runtime.enable');
  await s('Page.navigate', { url: 'file://' + resolve(page) });
  const evaluate = async (expr) => (await s('Runtime.evaluate', { expression: expr, returnByValue: true })).result.value;
  for (let i = 0; i < 600 && await evaluate("document.body && document.body.dataset.ganttReady") !== '1'; i++) await sleep(100);
  const state = () => evaluate(`(() => { const c = document.getElementById('gantt-canvas'), r = c.getBoundingClientRect(),
    t = document.getElementById('gantt-tip');
    return { drawn: +c.dataset.drawnJobs, view: c.dataset.view, x: r.left, y: r.top, w: r.width, h: r.height,
      tip: t.hidden ? '' : t.textContent }; })()`);
  await evaluate("document.getElementById('gantt-canvas').scrollIntoView()");
  const before = await state();
  check('jobs drawn at first', before.drawn === +jobsArg, `${before.drawn} of ${jobsArg}, view ${before.view}`);

  const cx = before.x + before.w / 2, cy = before.y + before.h / 2;
  for (let k = 0; k < 8; k++) {
    await s('Input.dispatchMouseEvent', { type: 'mouseWheel', x: cx, y: cy, deltaX: 0, deltaY: -300 });
  }
  await sleep(500);
  const zoomed = await state();
  const span = (v) => { const [a, b] = v.split(' ').map(Number); return b - a; };
  check('zoomed in with the wheel', span(zoomed.view) < span(before.view) / 4 && zoomed.drawn < before.drawn,
    `view ${zoomed.view}, ${zoomed.drawn} jobs drawn`);

  // hover: scan the middle row of the chart for a pixel holding a job
  let tip = '';
  for (let dx = 0; dx < before.w / 2 && !tip; dx += 7) {
    for (const dy of [0, 20, -20, 60, -60]) {
      await s('Input.dispatchMouseEvent', { type: 'mouseMoved', x: cx + dx, y: cy + dy });
      tip = (await state()).tip;
      if (tip) break;
    }
  }
  check('hover shows a job', /^job \d+ +user \S+\nsubmit .*\nstart .*\nend .*\nwait .*\n\d+ processors, \w+/.test(tip),
    JSON.stringify(tip.split('\n')[0] || tip));

  await s('Input.dispatchMouseEvent', { type: 'mousePressed', x: cx, y: cy, button: 'left', clickCount: 2 });
  await s('Input.dispatchMouseEvent', { type: 'mouseReleased', x: cx, y: cy, button: 'left', clickCount: 2 });
  await sleep(500);
  const reset = await state();
  check('a double-click shows the whole run again', reset.drawn === +jobsArg && reset.view === before.view,
    `${reset.drawn} jobs, view ${reset.view}`);

  const outside = requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));
  check('requests the page made beyond itself', outside.length === 0, `${outside.length} (in all: ${requests.map((u) => u.slice(0, 40)).join(', ')})`);
  outside.forEach((u) => console.log('  ' + u));
} catch (e) {
  failures.push(String(e));
  console.log('FAIL ' + e);
} finally {
  await stopChromium();
}

// stopChromium asks the browser to close, then ends its whole process group
// (chromium runs in its own group: detached above), waits until no process of
// the group is left, and only then removes the profile: a renderer or helper
// that outlives the browser process would otherwise still be writing into it.
async function stopChromium() {
  const exited = chrome.exitCode !== null ? Promise.resolve() : new Promise((r) => chrome.once('exit', r));
  await Promise.race([send('Browser.close').catch(() => {}), sleep(2000)]);
  await Promise.race([exited, sleep(5000)]);
  for (const sig of ['SIGTERM', 'SIGKILL']) {
    try { process.kill(-chrome.pid, sig); } catch { break; }
    for (let i = 0; i < 50 && groupAlive(); i++) await sleep(100);
  }
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.log(`note: left chromium's profile ${profile} behind: ${e.code}`);
  }
}

function groupAlive() {
  try { process.kill(-chrome.pid, 0); return true; } catch { return false; }
}

if (failures.length > 0) {
  console.log(`browser interaction check failed: ${failures.join(', ')}`);
  process.exit(1);
}
