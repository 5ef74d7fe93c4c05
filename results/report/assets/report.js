// The report's script: tables that sort and filter, and the Gantt chart.
// Plain JavaScript, no library; it reads the page's JSON (report-data)
// and requests nothing.
(function () {
  'use strict';
  // Requests the page's Content-Security-Policy refused, for the browser
  // test (.ci/browser): there should be none, as the page makes none.
  document.body.dataset.blocked = 0;
  document.addEventListener('securitypolicyviolation', function () { document.body.dataset.blocked++; });
  const D = JSON.parse(document.getElementById('report-data').textContent);

  // ---- formatting
  const intFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  function num(v) {
    if (v === null || v === undefined) return 'NULL';
    if (Number.isInteger(v)) return intFmt.format(v);
    if (Math.abs(v) >= 1000) return intFmt.format(v);
    return String(Number(v.toPrecision(4)));
  }
  function duration(s) { // 93784 → "1d 02:03:04"
    if (s === null || s === undefined) return 'NULL';
    const neg = s < 0 ? '-' : '';
    s = Math.round(Math.abs(s));
    const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60, x = s % 60;
    const hms = [h, m, x].map(function (v) { return String(v).padStart(2, '0'); }).join(':');
    return neg + (d > 0 ? d + 'd ' : '') + hms;
  }
  function cellText(v, c) {
    if (v === null || v === undefined) return 'NULL';
    if (!c.Num) return String(v);
    if (c.Unit === '%') return (100 * v).toFixed(1) + '%';
    if (c.Name === 'wall_seconds') return v.toFixed(3);
    if (c.Unit === 's') return v >= 60 ? duration(v) : num(v);
    return num(v);
  }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- a table that sorts on a header click and filters on words
  function dataTable(table, cols, rows, opt) {
    let order = rows.map(function (_, i) { return i; });
    let sortCol = -1, dir = 1;
    const texts = rows.map(function (r) {
      return r.map(function (v, i) { return cellText(v, cols[i]); }).join(' ').toLowerCase();
    });
    const thead = el('thead'), tbody = el('tbody');
    const hr = el('tr');
    cols.forEach(function (c, i) {
      const th = el('th', { title: c.Name || c.Label }, c.Label);
      th.addEventListener('click', function () {
        dir = sortCol === i ? -dir : 1;
        sortCol = i;
        hr.querySelectorAll('th').forEach(function (x) { x.className = ''; });
        th.className = dir > 0 ? 'asc' : 'desc';
        order.sort(function (a, b) { return dir * compare(rows[a][i], rows[b][i]) || a - b; });
        render();
      });
      hr.appendChild(th);
    });
    thead.appendChild(hr);
    table.replaceChildren(thead, tbody);
    function render() {
      const words = opt.filter ? opt.filter.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
      const frag = document.createDocumentFragment();
      let shown = 0;
      for (const i of order) {
        if (!words.every(function (w) { return texts[i].includes(w); })) continue;
        const tr = el('tr');
        if (opt.rowClass) tr.className = opt.rowClass(i);
        rows[i].forEach(function (v, k) {
          tr.appendChild(el('td', cols[k].Num ? { class: 'num' } : {}, cellText(v, cols[k])));
        });
        frag.appendChild(tr);
        shown++;
      }
      tbody.replaceChildren(frag);
      table.dataset.rows = shown;
      table.dataset.total = rows.length;
      if (opt.count) opt.count.textContent = shown + ' of ' + rows.length + ' ' + opt.noun;
    }
    if (opt.filter) opt.filter.addEventListener('input', render);
    render();
  }
  function compare(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1; // NULL last either way
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b), 'en', { numeric: true });
  }

  // ---- grid and runs
  const grid = document.getElementById('grid-table');
  D.Grid.forEach(function (a) {
    const tr = el('tr');
    tr.appendChild(el('th', {}, a.Name + ' (' + a.Values.length + ')'));
    tr.appendChild(el('td', {}, a.Values.join(', ')));
    grid.appendChild(tr);
  });
  const runsTr = el('tr');
  runsTr.appendChild(el('th', {}, 'runs'));
  runsTr.appendChild(el('td', {}, String(D.Runs.length)));
  grid.appendChild(runsTr);
  const keyCol = D.Columns.findIndex(function (c) { return c.Name === 'run_key'; });
  dataTable(document.getElementById('runs-table'), D.Columns, D.Runs, {
    filter: document.getElementById('runs-filter'), count: document.getElementById('runs-count'), noun: 'runs',
    rowClass: function (i) { return D.Runs[i][keyCol] === D.Chosen ? 'chosen' : ''; },
  });

  // ---- users
  (function users() {
    const U = D.Users, cap = document.getElementById('users-caption');
    if (!U) { cap.textContent = 'The folder has no users table for the charted run.'; return; }
    cap.textContent = 'Each user of workload ' + U.Workload + ', load ' + U.Load + ', replicate ' + U.Replicate +
      ' (the charted run\'s) under each policy; jobs: the user\'s jobs. Times in seconds.';
    const sel = document.getElementById('users-metric');
    U.Metrics.forEach(function (m, i) { sel.appendChild(el('option', { value: i }, m)); });
    function show() {
      const m = +sel.value || 0, unit = /wait|response/.test(U.Metrics[m]) ? 's' : '';
      const cols = [{ Label: 'user', Num: true }, { Label: 'jobs', Num: true }].concat(U.Series.map(function (s) {
        return { Label: s, Num: true, Unit: unit };
      }));
      const rows = U.Users.map(function (u, k) {
        return [u < 0 ? null : u, U.Jobs[k]].concat(U.Series.map(function (_, p) { return U.Values[m][p][k]; }));
      });
      dataTable(document.getElementById('users-table'), cols, rows, { filter: document.getElementById('users-filter'), noun: 'users' });
    }
    sel.addEventListener('change', show);
    show();
  })();

  // ---- the Gantt chart
  const G = D.Gantt;
  const cap = document.getElementById('gantt-caption');
  if (!G) {
    cap.textContent = 'No chart: ' + D.NoGantt + '.';
    document.getElementById('gantt-box').hidden = true;
    return;
  }
  const n = G.ID.length;
  let ran = 0;
  for (let i = 0; i < n; i++) if (G.Band[i + 1] > G.Band[i]) ran++;
  cap.textContent = 'Workload ' + G.Workload + ', policy ' + G.Series + ', load ' + G.Load + ', replicate ' + G.Replicate +
    ': ' + intFmt.format(n) + ' jobs (' + intFmt.format(ran) + ' drawn: those that ran on processors), ' + G.Procs +
    ' processors, makespan ' + duration(G.Makespan) + '. Time from the run\'s first submission; above, processors in use.';
  const rowsAll = Math.max(G.Rows, G.Procs, 1);
  const canvas = document.getElementById('gantt-canvas'), util = document.getElementById('gantt-util');
  const tip = document.getElementById('gantt-tip'), colorSel = document.getElementById('gantt-color');
  canvas.dataset.jobs = ran;
  const M = { left: 56, right: 12, top: 6, bottom: 26 }; // CSS pixels
  let view = { t0: 0, t1: Math.max(G.Makespan, 1), r0: 0, r1: rowsAll };

  // colours as little-endian RGBA words for the pixel buffer, and CSS
  const userRank = new Map();
  Array.from(new Set(G.User)).sort(function (a, b) { return a - b; }).forEach(function (u, k) { userRank.set(u, k); });
  function hsl(h, s, l) { // → [r, g, b]
    const a = s * Math.min(l, 1 - l);
    const f = function (k) { const x = (k + h / 30) % 12; return Math.round(255 * (l - a * Math.max(-1, Math.min(x - 3, 9 - x, 1)))); };
    return [f(0), f(8), f(4)];
  }
  const statusRGB = [[0, 114, 178], [213, 94, 0], [150, 150, 150], [0, 158, 115]];
  function rgbOf(i, mode) {
    if (mode === 'status') return statusRGB[Math.min(G.Status[i], statusRGB.length - 1)];
    const k = userRank.get(G.User[i]);
    return hsl((k * 137.508) % 360, 0.62, k % 2 ? 0.48 : 0.62);
  }
  function word(c) { return (255 << 24 | c[2] << 16 | c[1] << 8 | c[0]) >>> 0; }
  let fill = new Uint32Array(n), edge = new Uint32Array(n);
  function setColors() {
    const mode = colorSel.value;
    for (let i = 0; i < n; i++) {
      const c = rgbOf(i, mode);
      fill[i] = word(c);
      edge[i] = word(c.map(function (v) { return Math.round(v + (255 - v) * 0.55); }));
    }
    legend(mode);
  }
  function legend(mode) {
    const box = document.getElementById('gantt-legend');
    box.replaceChildren();
    const entries = mode === 'status'
      ? G.StatusNames.map(function (s, k) { return [s, statusRGB[Math.min(k, statusRGB.length - 1)]]; }).filter(function (e, k) { return G.Status.includes(k); })
      : Array.from(userRank.keys()).slice(0, 60).map(function (u, k) { return ['user ' + (u < 0 ? 'unknown' : u), hsl((k * 137.508) % 360, 0.62, k % 2 ? 0.48 : 0.62)]; });
    entries.forEach(function (e) {
      const item = el('span', { class: 'item' });
      item.appendChild(el('span', { class: 'swatch', style: 'background:rgb(' + e[1].join(',') + ')' }));
      item.appendChild(document.createTextNode(e[0]));
      box.appendChild(item);
      box.appendChild(document.createTextNode(' '));
    });
    if (mode !== 'status' && userRank.size > 60) box.appendChild(document.createTextNode(' … ' + userRank.size + ' users in all'));
  }

  // processors in use: busy after each distinct event time, from the bands
  const ev = new Map();
  for (let i = 0; i < n; i++) {
    let w = 0;
    for (let k = G.Band[i]; k < G.Band[i + 1]; k++) w += G.Hi[k] - G.Lo[k];
    if (w === 0 || G.End[i] <= G.Start[i]) continue;
    ev.set(G.Start[i], (ev.get(G.Start[i]) || 0) + w);
    ev.set(G.End[i], (ev.get(G.End[i]) || 0) - w);
  }
  const evT = Float64Array.from(ev.keys()).sort();
  const evB = new Float64Array(evT.length);
  for (let k = 0, b = 0; k < evT.length; k++) { b += ev.get(evT[k]); evB[k] = b; }
  function busyAt(t) { // index of the last event at or before t, -1 if none
    let lo = 0, hi = evT.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (evT[mid] <= t) lo = mid + 1; else hi = mid; }
    return lo - 1;
  }

  let pick = null, plotW = 0, plotH = 0, dpr = 1, frame = 0;
  function size(c, cssH) {
    dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth || 800;
    c.width = Math.round(w * dpr);
    c.height = Math.round(cssH * dpr);
    c.style.height = cssH + 'px';
  }
  function niceStep(span, target, steps) {
    for (const s of steps) if (span / s <= target) return s;
    return steps[steps.length - 1];
  }
  const timeSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
    172800, 432000, 604800, 1209600, 2592000, 7776000, 31536000];
  function timeLabel(t, step) {
    if (step >= 86400) return (t / 86400) + 'd';
    if (step >= 3600) return (t / 3600) + 'h';
    const h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
    return h + ':' + String(m).padStart(2, '0') + (step < 60 ? ':' + String(s).padStart(2, '0') : '');
  }

  function draw() {
    frame = 0;
    const began = performance.now();
    size(canvas, 440);
    size(util, 70);
    const ctx = canvas.getContext('2d');
    const L = Math.round(M.left * dpr), T = Math.round(M.top * dpr);
    plotW = Math.max(1, canvas.width - L - Math.round(M.right * dpr));
    plotH = Math.max(1, canvas.height - T - Math.round(M.bottom * dpr));
    const sx = plotW / (view.t1 - view.t0), sy = plotH / (view.r1 - view.r0);
    const img = ctx.createImageData(plotW, plotH);
    const px = new Uint32Array(img.data.buffer);
    px.fill(0xffffffff);
    pick = new Int32Array(plotW * plotH).fill(-1);
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      const b0 = G.Band[i], b1 = G.Band[i + 1];
      if (b0 === b1 || G.End[i] < view.t0 || G.Start[i] > view.t1) continue;
      const x0 = Math.max(0, Math.floor((G.Start[i] - view.t0) * sx));
      const x1 = Math.min(plotW, Math.max(Math.floor((G.Start[i] - view.t0) * sx) + 1, Math.floor((G.End[i] - view.t0) * sx)));
      if (x1 <= x0) continue;
      let any = false;
      for (let k = b0; k < b1; k++) {
        if (G.Hi[k] <= view.r0 || G.Lo[k] >= view.r1) continue;
        const yTop = Math.floor(plotH - (G.Hi[k] - view.r0) * sy);
        const y0 = Math.max(0, yTop);
        const y1 = Math.min(plotH, Math.max(yTop + 1, Math.floor(plotH - (G.Lo[k] - view.r0) * sy)));
        if (y1 <= y0) continue;
        any = true;
        const framed = x1 - x0 >= 4 && y1 - y0 >= 4;
        for (let y = y0; y < y1; y++) {
          const row = y * plotW;
          const c = framed && y === y0 ? edge[i] : fill[i];
          for (let x = x0; x < x1; x++) { px[row + x] = c; pick[row + x] = i; }
          if (framed) px[row + x1 - 1] = edge[i];
        }
      }
      if (any) drawn++;
    }
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.putImageData(img, L, T);
    axes(ctx, L, T, sx, sy);
    strip(L, sx);
    canvas.dataset.drawnJobs = drawn;
    canvas.dataset.drawMs = Math.round(performance.now() - began);
    canvas.dataset.view = [view.t0, view.t1, view.r0, view.r1].map(function (v) { return Math.round(v); }).join(' ');
    document.body.dataset.resources = performance.getEntriesByType('resource').length;
    document.body.dataset.ganttReady = '1';
  }

  function axes(ctx, L, T, sx, sy) {
    ctx.fillStyle = '#333';
    ctx.strokeStyle = '#999';
    ctx.lineWidth = dpr;
    ctx.font = (11 * dpr) + 'px system-ui, sans-serif';
    ctx.strokeRect(L - 0.5, T - 0.5, plotW + 1, plotH + 1);
    const ts = niceStep(view.t1 - view.t0, 10, timeSteps);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let t = Math.ceil(view.t0 / ts) * ts; t <= view.t1; t += ts) {
      const x = L + (t - view.t0) * sx;
      ctx.beginPath(); ctx.moveTo(x, T + plotH); ctx.lineTo(x, T + plotH + 4 * dpr); ctx.stroke();
      ctx.fillText(timeLabel(t, ts), x, T + plotH + 6 * dpr);
    }
    const span = view.r1 - view.r0;
    let rs = 1;
    while (span / rs > 8) rs *= (String(rs)[0] === '2' ? 2.5 : 2);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let r = Math.ceil(view.r0 / rs) * rs; r <= view.r1; r += rs) {
      const y = T + plotH - (r - view.r0) * sy;
      ctx.beginPath(); ctx.moveTo(L - 4 * dpr, y); ctx.lineTo(L, y); ctx.stroke();
      ctx.fillText(String(Math.round(r)), L - 6 * dpr, y);
    }
    if (G.Rows > G.Procs) { // rows of a two-tier machine's background VM
      const y = T + plotH - (G.Procs - view.r0) * sy;
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.beginPath(); ctx.moveTo(L, y); ctx.lineTo(L + plotW, y); ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.save();
    ctx.translate(12 * dpr, T + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText('processors', 0, 0);
    ctx.restore();
  }

  // the strip: processors in use averaged over each column's time
  function strip(L, sx) {
    const ctx = util.getContext('2d');
    const H = util.height - Math.round(8 * dpr), T = Math.round(4 * dpr);
    const top = rowsAll / Math.max(G.Procs, 1); // 1, or more on a two-tier machine
    ctx.clearRect(0, 0, util.width, util.height);
    ctx.fillStyle = '#0072b2';
    let k = busyAt(view.t0);
    for (let c = 0; c < plotW; c++) {
      const a = view.t0 + c / sx, b = view.t0 + (c + 1) / sx;
      let t = a, area = 0, cur = k >= 0 ? evB[k] : 0;
      while (k + 1 < evT.length && evT[k + 1] < b) {
        area += cur * (evT[k + 1] - t);
        t = evT[k + 1];
        k++;
        cur = evB[k];
      }
      area += cur * (b - t);
      const share = area / (b - a) / Math.max(G.Procs, 1);
      const h = Math.round(H * Math.min(share, top) / top);
      if (h > 0) ctx.fillRect(L + c, T + H - h, 1, h);
    }
    ctx.strokeStyle = '#999';
    ctx.lineWidth = dpr;
    ctx.strokeRect(L - 0.5, T - 0.5, plotW + 1, H + 1);
    ctx.fillStyle = '#333';
    ctx.font = (11 * dpr) + 'px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(Math.round(100 * top) + '%', L - 6 * dpr, T);
    ctx.fillText('0', L - 6 * dpr, T + H);
    ctx.save();
    ctx.translate(12 * dpr, T + H / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText('in use', 0, 0);
    ctx.restore();
  }

  function redraw() { if (!frame) frame = requestAnimationFrame(draw); }
  function plotPoint(e) { // the event's place in the plot area, device pixels
    const r = canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) * dpr - Math.round(M.left * dpr), y: (e.clientY - r.top) * dpr - Math.round(M.top * dpr) };
  }
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    const p = plotPoint(e), f = Math.exp(e.deltaY * 0.0015);
    if (e.shiftKey) {
      const r = view.r0 + (1 - p.y / plotH) * (view.r1 - view.r0);
      const span = Math.max(1, (view.r1 - view.r0) * f);
      view.r0 = r - (r - view.r0) / (view.r1 - view.r0) * span;
      view.r1 = view.r0 + span;
    } else {
      const t = view.t0 + p.x / plotW * (view.t1 - view.t0);
      const span = Math.max(1, (view.t1 - view.t0) * f);
      view.t0 = t - (t - view.t0) / (view.t1 - view.t0) * span;
      view.t1 = view.t0 + span;
    }
    redraw();
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('mousedown', function (e) { drag = { x: e.clientX, y: e.clientY, v: Object.assign({}, view) }; });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    const dt = (e.clientX - drag.x) * dpr / plotW * (drag.v.t1 - drag.v.t0);
    const dr = (e.clientY - drag.y) * dpr / plotH * (drag.v.r1 - drag.v.r0);
    view = { t0: drag.v.t0 - dt, t1: drag.v.t1 - dt, r0: drag.v.r0 + dr, r1: drag.v.r1 + dr };
    tip.hidden = true;
    redraw();
  });
  function reset() { view = { t0: 0, t1: Math.max(G.Makespan, 1), r0: 0, r1: rowsAll }; redraw(); }
  canvas.addEventListener('dblclick', reset);
  document.getElementById('gantt-reset').addEventListener('click', reset);
  canvas.addEventListener('mousemove', function (e) {
    if (drag || !pick) return;
    const p = plotPoint(e), x = Math.floor(p.x), y = Math.floor(p.y);
    const i = x >= 0 && y >= 0 && x < plotW && y < plotH ? pick[y * plotW + x] : -1;
    if (i < 0) { tip.hidden = true; return; }
    const t = function (s) { return duration(s) + ' (' + intFmt.format(s + G.Origin) + ' s in the trace)'; };
    tip.textContent = 'job ' + G.ID[i] + '   user ' + (G.User[i] < 0 ? 'unknown' : G.User[i]) +
      '\nsubmit ' + t(G.Submit[i]) + '\nstart  ' + t(G.Start[i]) + '\nend    ' + t(G.End[i]) +
      '\nwait   ' + duration(G.Start[i] - G.Submit[i]) + '\n' + G.Width[i] + ' processors, ' + G.StatusNames[G.Status[i]];
    const box = canvas.getBoundingClientRect();
    tip.style.left = Math.min(e.clientX - box.left + 14, box.width - 260) + 'px';
    tip.style.top = (e.clientY - box.top + util.clientHeight + 14) + 'px';
    tip.hidden = false;
  });
  canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
  colorSel.addEventListener('change', function () { setColors(); redraw(); });
  window.addEventListener('resize', redraw);
  setColors();
  draw();
})();
