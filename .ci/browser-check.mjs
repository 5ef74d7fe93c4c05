// Checks what chromium left of a report (see .ci/browser):
//
//   node browser-check.mjs DOM NETLOG RUNS JOBS
//
// DOM is --dump-dom's output, after the page's script ran; NETLOG the
// --log-net-log file of the same visit. It checks that the runs table
// holds RUNS rows, that the Gantt chart's canvas says it drew JOBS jobs
// (data-drawn-jobs, which the script sets after drawing) and that JOBS
// ran, that the page asked for no resource (none loaded, none refused by
// its Content-Security-Policy), and that the network log holds no request
// the page made: chromium's own (updates, sync) have no initiator
// ("not an origin") and a network isolation key that is not the page's.
import { readFileSync } from 'node:fs';

const [domPath, netPath, runsArg, jobsArg] = process.argv.slice(2);
const dom = readFileSync(domPath, 'utf8');
const failures = [];
const want = (what, got, expected) => {
  const ok = String(got) === String(expected);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${got}${ok ? '' : ` (want ${expected})`}`);
  if (!ok) failures.push(what);
};
const attr = (tag, name) => {
  const m = tag.match(new RegExp(`\\b${name}="([^"]*)"`));
  return m ? m[1] : 'missing';
};
const tagOf = (id) => {
  const m = dom.match(new RegExp(`<[a-z]+ id="${id}"[^>]*>`));
  return m ? m[0] : '';
};

// The runs table's rows, counted in the DOM.
const table = dom.match(/<table id="runs-table"[^>]*>([\s\S]*?)<\/table>/);
const body = table ? table[1].match(/<tbody>([\s\S]*?)<\/tbody>/) : null;
want('rows of the runs table', body ? (body[1].match(/<tr[ >]/g) || []).length : 'no table', runsArg);

const canvas = tagOf('gantt-canvas');
want('jobs the Gantt chart drew', attr(canvas, 'data-drawn-jobs'), jobsArg);
want('jobs of the charted run that ran', attr(canvas, 'data-jobs'), jobsArg);

const bodyTag = dom.match(/<body[^>]*>/)[0];
want('resources the page asked for (performance entries, refused ones too)', attr(bodyTag, 'data-resources'), 0);
want('requests its Content-Security-Policy refused', attr(bodyTag, 'data-blocked'), 0);

const net = JSON.parse(readFileSync(netPath, 'utf8'));
const start = net.constants.logEventTypes.URL_REQUEST_START_JOB;
const requests = net.events.filter((e) => e.type === start && e.params && e.params.url);
const mine = requests.filter((e) =>
  (e.params.initiator !== 'not an origin' || String(e.params.network_isolation_key).startsWith('file://')));
const others = requests.length - mine.length;
want(`network requests the page made (chromium's own: ${others})`, mine.length, 0);
for (const e of mine) console.log(`  ${e.params.method} ${e.params.url}`);

if (failures.length > 0) {
  console.log(`browser check failed: ${failures.join(', ')}`);
  process.exit(1);
}
