// npcd debug page: polls the daemon's /api routes and draws them. No framework, no build.
'use strict';

const params = new URLSearchParams(location.search);
const token = params.get('token');
const state = {
  view: 'world', world: null, stats: null, agentId: null, agent: null,
  recorder: [], recorderAfter: 0, placeEvents: [], placeAfter: 0,
  plannerId: null, plannerName: '', navmesh: null, navmeshAt: 0, cam: null, hover: null, selected: null,
};

// ---- plumbing ---------------------------------------------------------------------------
async function api(path) {
  const headers = token ? { Authorization: 'Bearer ' + token } : {};
  const res = await fetch(path, { headers, cache: 'no-store' });
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k === 'style') e.style.cssText = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) e.append(c instanceof Node ? c : String(c));
  return e;
}
// replaceChildren that skips absent (null) parts.
function fill(node, ...kids) { node.replaceChildren(...kids.flat().filter((k) => k != null)); }
const fmt = (x, d = 1) => (x == null ? '–' : typeof x === 'number' ? x.toFixed(d) : String(x));
function setClock(tick, time_s) {
  $('clock').textContent = `tick ${tick}` + (time_s != null ? ` · ${fmt(time_s, 1)} s` : '');
}
function setStatus(ok, text) {
  const s = $('status');
  s.textContent = text;
  s.className = 'pill ' + (ok ? 'ok' : 'bad');
}
// A stable colour per behavior name.
function colorOf(name) {
  let h = 0;
  for (const c of name || '') h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${(h * 137) % 360}, 65%, 62%)`;
}
function bar(value, max, cls) {
  const pct = Math.max(0, Math.min(100, (100 * value) / max));
  return el('div', { class: 'bar ' + (cls || ''), title: fmt(value, 2) }, el('span', { style: `width:${pct}%` }));
}

// ---- tabs ---------------------------------------------------------------------------------
function show(view) {
  state.view = view;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === view);
  for (const s of document.querySelectorAll('.view')) s.classList.toggle('active', s.id === 'view-' + view);
  if (view === 'world') resizeMap();
  refresh();
}
for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => show(b.dataset.view));

// ---- world view -----------------------------------------------------------------------------
const map = $('map');
const ctx = map.getContext('2d');
function resizeMap() {
  const r = map.getBoundingClientRect();
  map.width = Math.max(1, r.width * devicePixelRatio);
  map.height = Math.max(1, r.height * devicePixelRatio);
  drawMap();
}
window.addEventListener('resize', () => { resizeMap(); drawCharts(); });

function worldBounds(w) {
  let x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity;
  const add = (x, z) => { x0 = Math.min(x0, x); x1 = Math.max(x1, x); z0 = Math.min(z0, z); z1 = Math.max(z1, z); };
  for (const p of w.places) { add(p.bounds.min[0], p.bounds.min[1]); add(p.bounds.max[0], p.bounds.max[1]); }
  for (const a of w.agents) add(a.position[0], a.position[1]);
  for (const p of w.players) add(p.position[0], p.position[1]);
  if (!isFinite(x0)) return { x0: -50, z0: -50, x1: 50, z1: 50 };
  return { x0: x0 - 5, z0: z0 - 5, x1: x1 + 5, z1: z1 + 5 };
}
function fitCamera() {
  if (!state.world) return;
  const b = worldBounds(state.world);
  const scale = Math.min(map.width / (b.x1 - b.x0), map.height / (b.z1 - b.z0));
  state.cam = { scale, cx: (b.x0 + b.x1) / 2, cz: (b.z0 + b.z1) / 2 };
}
// World ground (x, y) to canvas pixels; +y is drawn upwards (north up). The code calls the
// second ground axis z for the screen's vertical.
const toScreen = (x, z) => [map.width / 2 + (x - state.cam.cx) * state.cam.scale,
                            map.height / 2 - (z - state.cam.cz) * state.cam.scale];
const toWorld = (px, pz) => [state.cam.cx + (px - map.width / 2) / state.cam.scale,
                             state.cam.cz - (pz - map.height / 2) / state.cam.scale];

// The walkable polygons, faint, under everything that stands on them.
function drawNavMesh(polygons) {
  ctx.fillStyle = 'rgba(127,209,139,0.10)';
  ctx.strokeStyle = 'rgba(127,209,139,0.35)';
  ctx.lineWidth = devicePixelRatio;
  for (const poly of polygons) {
    ctx.beginPath();
    poly.forEach((c, i) => { const [x, z] = toScreen(c[0], c[1]); if (i) ctx.lineTo(x, z); else ctx.moveTo(x, z); });
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}
function drawPath(corners) {
  ctx.strokeStyle = '#f0c05a';
  ctx.lineWidth = 2 * devicePixelRatio;
  ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
  ctx.beginPath();
  corners.forEach((c, i) => { const [x, z] = toScreen(c[0], c[1]); if (i) ctx.lineTo(x, z); else ctx.moveTo(x, z); });
  ctx.stroke();
  ctx.setLineDash([]);
}
function drawMap() {
  const w = state.world;
  ctx.clearRect(0, 0, map.width, map.height);
  if (!w) return;
  if (!state.cam) fitCamera();
  const s = state.cam.scale, dpr = devicePixelRatio;
  drawGrid();
  for (const p of w.places) {
    const [ax, az] = toScreen(p.bounds.min[0], p.bounds.max[1]);
    const [bx, bz] = toScreen(p.bounds.max[0], p.bounds.min[1]);
    const asleep = p.state === 'asleep';
    ctx.fillStyle = asleep ? 'rgba(120,120,130,0.18)' : p.state === 'draining' ? 'rgba(240,192,90,0.08)' : 'rgba(95,179,249,0.07)';
    ctx.strokeStyle = asleep ? '#555b66' : p.state === 'draining' ? '#8a7440' : '#3d6f99';
    ctx.setLineDash(asleep ? [6 * dpr, 4 * dpr] : []);
    ctx.lineWidth = 1.5 * dpr;
    ctx.fillRect(ax, az, bx - ax, bz - az);
    ctx.strokeRect(ax, az, bx - ax, bz - az);
    ctx.setLineDash([]);
    ctx.fillStyle = asleep ? '#7b8494' : '#9ccbf5';
    ctx.font = `${12 * dpr}px system-ui`;
    ctx.fillText(p.name + (asleep ? ` · asleep (${p.sleeping_agents})` : p.state === 'draining' ? ' · draining' : ''), ax + 5 * dpr, az + 15 * dpr);
  }
  if (state.navmesh && $('show-navmesh').checked) drawNavMesh(state.navmesh.polygons);
  for (const o of w.obstacles) {
    const [ax, az] = toScreen(o.box.min[0], o.box.max[1]);
    const [bx, bz] = toScreen(o.box.max[0], o.box.min[1]);
    ctx.fillStyle = o.cover === 'soft' ? 'rgba(90,160,90,0.45)' : '#4a505c';
    ctx.fillRect(ax, az, Math.max(bx - ax, 1), Math.max(bz - az, 1));
  }
  if (state.path) drawPath(state.path);
  for (const o of w.objects) {
    const [x, z] = toScreen(o.position[0], o.position[1]);
    ctx.fillStyle = '#b59b6a';
    ctx.fillRect(x - 2.5 * dpr, z - 2.5 * dpr, 5 * dpr, 5 * dpr);
  }
  const r = Math.max(4 * dpr, Math.min(9 * dpr, 0.6 * s));
  for (const a of w.agents) {
    const [x, z] = toScreen(a.position[0], a.position[1]);
    ctx.beginPath();
    ctx.arc(x, z, r, 0, 2 * Math.PI);
    ctx.fillStyle = a.asleep ? '#59606b' : colorOf(a.behavior);
    ctx.fill();
    if (!a.asleep) {
      ctx.strokeStyle = ctx.fillStyle;
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.moveTo(x, z);
      ctx.lineTo(x + a.forward[0] * r * 2, z - a.forward[1] * r * 2);
      ctx.stroke();
    }
    if (a.id === state.agentId || a.id === state.hover) {
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.arc(x, z, r + 3 * dpr, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
  for (const p of w.players) {
    const [x, z] = toScreen(p.position[0], p.position[1]);
    ctx.fillStyle = p.active ? '#ff5d8f' : '#7a4656';
    ctx.beginPath();
    ctx.moveTo(x, z - r * 1.4); ctx.lineTo(x + r * 1.1, z); ctx.lineTo(x, z + r * 1.4); ctx.lineTo(x - r * 1.1, z);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = '#ffb3c9';
    ctx.font = `${11 * dpr}px system-ui`;
    ctx.fillText('player ' + p.id, x + r * 1.4, z + 4 * dpr);
  }
}
function drawGrid() {
  const dpr = devicePixelRatio;
  let step = 10;
  while (step * state.cam.scale < 40 * dpr) step *= 2;
  const [wx0, wz1] = toWorld(0, 0), [wx1, wz0] = toWorld(map.width, map.height);
  ctx.strokeStyle = '#1b1f26';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = Math.floor(wx0 / step) * step; x <= wx1; x += step) { const [sx] = toScreen(x, 0); ctx.moveTo(sx, 0); ctx.lineTo(sx, map.height); }
  for (let z = Math.floor(wz0 / step) * step; z <= wz1; z += step) { const [, sz] = toScreen(0, z); ctx.moveTo(0, sz); ctx.lineTo(map.width, sz); }
  ctx.stroke();
}
function agentAt(px, pz) {
  if (!state.world) return null;
  let best = null, bestD = 12 * devicePixelRatio;
  for (const a of state.world.agents) {
    const [x, z] = toScreen(a.position[0], a.position[1]);
    const d = Math.hypot(x - px, z - pz);
    if (d < bestD) { best = a; bestD = d; }
  }
  return best;
}
let drag = null;
map.addEventListener('mousedown', (e) => { drag = { x: e.offsetX, z: e.offsetY, moved: false }; });
window.addEventListener('mouseup', (e) => {
  if (drag && !drag.moved && e.target === map) {
    const a = agentAt(e.offsetX * devicePixelRatio, e.offsetY * devicePixelRatio);
    if (a) openAgent(a.id);
  }
  drag = null;
});
map.addEventListener('mousemove', (e) => {
  if (drag && state.cam) {
    const dx = e.offsetX - drag.x, dz = e.offsetY - drag.z;
    if (Math.abs(dx) + Math.abs(dz) > 2) drag.moved = true;
    state.cam.cx -= (dx * devicePixelRatio) / state.cam.scale;
    state.cam.cz += (dz * devicePixelRatio) / state.cam.scale;
    drag.x = e.offsetX; drag.z = e.offsetY;
    drawMap();
    return;
  }
  const a = agentAt(e.offsetX * devicePixelRatio, e.offsetY * devicePixelRatio);
  const tip = $('map-tip');
  state.hover = a ? a.id : null;
  if (a) {
    tip.hidden = false;
    tip.style.left = e.offsetX + 14 + 'px';
    tip.style.top = e.offsetY + 10 + 'px';
    tip.textContent = `${a.id} ${a.archetype}\n${a.behavior}${a.asleep ? ' (asleep)' : ''}\n${a.place || 'no place'}`;
  } else tip.hidden = true;
  map.style.cursor = a ? 'pointer' : 'grab';
  drawMap();
});
map.addEventListener('wheel', (e) => {
  e.preventDefault();
  if (!state.cam) return;
  const px = e.offsetX * devicePixelRatio, pz = e.offsetY * devicePixelRatio;
  const [wx, wz] = toWorld(px, pz);
  state.cam.scale *= e.deltaY < 0 ? 1.15 : 1 / 1.15;
  const [nx, nz] = toWorld(px, pz);
  state.cam.cx += wx - nx; state.cam.cz += wz - nz;
  drawMap();
}, { passive: false });
$('map-fit').addEventListener('click', (e) => { e.preventDefault(); fitCamera(); drawMap(); });
$('show-navmesh').addEventListener('change', drawMap);
$('agent-filter').addEventListener('input', () => renderAgentList());

function renderLegend() {
  const counts = new Map();
  for (const a of state.world.agents) {
    const k = a.asleep ? '(asleep)' : a.behavior;
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const items = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  fill($('legend'), ...items.map(([name, n]) =>
    el('li', {}, el('span', { class: 'swatch', style: `background:${name === '(asleep)' ? '#59606b' : colorOf(name)}` }), name, el('span', { class: 'n' }, n))),
    el('li', {}, el('span', { class: 'swatch', style: 'background:#ff5d8f;border-radius:2px' }), 'player', el('span', { class: 'n' }, state.world.players.length)));
}
function renderAgentList() {
  const f = $('agent-filter').value.trim().toLowerCase();
  const agents = state.world.agents.filter((a) => !f || `${a.id} ${a.archetype} ${a.behavior} ${a.place}`.toLowerCase().includes(f));
  $('agent-count').textContent = `${state.world.agents.length}${state.world.agents_matched > state.world.agents.length ? ' of ' + state.world.agents_matched : ''}`;
  fill($('agent-list'), ...agents.slice(0, 300).map((a) =>
    el('li', { class: a.id === state.agentId ? 'sel' : '', 'data-agent': a.id, onclick: () => openAgent(a.id) },
      el('span', { class: 'swatch', style: `background:${a.asleep ? '#59606b' : colorOf(a.behavior)}` }),
      el('span', { class: 'id' }, a.id), a.archetype, el('span', { class: 'beh' }, a.behavior))));
}
async function refreshWorld() {
  // The mesh changes rarely: fetched with the map every few seconds, kept in between.
  const withMesh = !state.navmeshAt || Date.now() - state.navmeshAt > 5000;
  state.world = await api(withMesh ? '/api/world?navmesh=1' : '/api/world');
  if (withMesh) { state.navmesh = state.world.navmesh; state.navmeshAt = Date.now(); }
  // The opened agent's last MoveTo path, drawn over the map (once a second).
  if (state.agentId && Date.now() - (state.pathAt || 0) > 1000) {
    state.pathAt = Date.now();
    const a = await api('/api/agent?id=' + state.agentId).catch(() => null);
    const last = a && a.navigation && a.navigation.last_move_to;
    state.path = last && last.corners ? last.corners : null;
  }
  setClock(state.world.tick, state.world.time_s);
  if (!state.cam) fitCamera();
  drawMap();
  renderLegend();
  renderAgentList();
}

// ---- agent view -----------------------------------------------------------------------------
function openAgent(id) {
  if (state.agentId !== id) { state.recorder = []; state.recorderAfter = 0; state.path = null; state.pathAt = 0; }
  state.agentId = id;
  $('agent-id').value = id;
  show('agent');
}
$('agent-open').addEventListener('click', () => { const id = parseInt($('agent-id').value, 10); if (id > 0) openAgent(id); });
$('agent-id').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('agent-open').click(); });

function renderSelection(sel) {
  $('sel-tree').textContent = sel && sel.tree ? sel.tree : 'none';
  fill($('sel-path'), ...(sel ? sel.path : []).map((s) =>
    el('li', {}, el('b', {}, s.node), ' ', el('span', { class: 'muted' }, s.type),
      s.condition ? el('span', { class: 'muted' }, ` if ${s.condition}`) : null,
      s.state ? el('span', {}, ` state ${s.state}`) : null,
      s.behavior ? el('span', {}, ` → ${s.behavior}`) : null,
      el('span', { class: 'at' }, s.at))));
  $('sel-path').dataset.path = sel ? sel.path.map((s) => s.node).join('/') : '';
  const vars = sel ? Object.entries(sel.variables) : [];
  fill($('sel-vars'), ...vars.map(([k, v]) => el('span', { class: 'chip' + (v ? ' on' : '') }, k)));
}
function renderTree(mbt) {
  const box = $('bt-tree');
  if (!mbt || !mbt.nodes) {
    $('bt-name').textContent = 'none';
    fill(box, el('div', { class: 'muted' }, 'This behavior runs no behavior tree.'));
    return;
  }
  $('bt-name').textContent = `${mbt.tree} · ${mbt.file}`;
  const file = (mbt.file || '').split('/').pop();
  const nodes = mbt.nodes;
  // Is node i the last child of its parent? (for the connector lines)
  const last = nodes.map((n, i) => !nodes.slice(i + 1).some((m) => m.parent === n.parent) );
  const ancestors = (n) => { const a = []; for (let p = n.parent; p >= 0; p = nodes[p].parent) a.unshift(nodes[p]); return a; };
  fill(box, ...nodes.map((n) => {
    const indents = ancestors(n).slice(1).map((a) => el('span', { class: 'indent' + (last[a.index] ? ' last' : '') }));
    if (n.parent >= 0) indents.push(el('span', { class: 'indent' }));
    return el('div', { class: 'node' + (n.running ? ' running' : ''), 'data-line': n.line }, ...indents,
      el('span', { class: 'box' }, n.type), el('span', { class: 'at' }, `${file}:${n.line}`),
      n.text ? el('span', { class: 'text' }, n.text) : null);
  }));
}
function targetRow(t, kind) {
  return el('tr', {}, el('td', {}, kind), el('td', {}, t.target), el('td', {}, bar(t.coefficient, 10, 'meter')),
    el('td', {}, fmt(t.coefficient, 2)), el('td', {}, t.distance_m != null ? fmt(t.distance_m) + ' m' : t.expires_in_s != null ? `expires ${fmt(t.expires_in_s)} s` : ''));
}
function renderPerception(p, stealth) {
  if (!p) { fill($('perception'), el('div', { class: 'muted' }, 'asleep')); return; }
  const rows = [...p.visible.map((t) => targetRow(t, 'visible')), ...p.memory.map((t) => targetRow(t, 'memory')), ...p.potential.map((t) => targetRow(t, 'potential'))];
  const att = p.attention;
  fill($('perception'), 
    el('div', { class: 'kv' }, el('span', { class: 'k' }, 'sensors'),
      el('span', {}, `sight ${fmt(p.sensors.sight_range_m)} m, fov ${fmt(p.sensors.fov_deg, 0)}°, ${p.sensors.vision ? 'vision' : 'blind'}, ${p.sensors.hearing ? 'hearing' : 'deaf'}`),
      el('span', { class: 'k' }, 'attention'), el('span', {}, att ? `${att.class} ${att.target || ''} (threat ${fmt(att.threat, 2)})` : 'none')),
    el('h4', {}, 'Targets (perception coefficient 0–10)'),
    rows.length ? el('table', { class: 'mini' }, el('tr', {}, el('th', {}, 'list'), el('th', {}, 'target'), el('th', {}, 'stealth meter'), el('th', {}, ''), el('th', {}, '')), ...rows)
      : el('div', { class: 'muted' }, 'nothing perceived'),
    stealth.length ? el('h4', {}, 'Stealth meters (players, 0–10, and who is most aware)') : null,
    stealth.length ? el('table', { class: 'mini' }, ...stealth.map((m) => el('tr', {}, el('td', {}, 'player ' + m.player),
      el('td', {}, bar(m.value, 10, 'meter')), el('td', {}, fmt(m.value, 2)),
      el('td', { class: m.agent === state.agentId ? 'ok' : 'muted' }, m.agent ? (m.agent === state.agentId ? 'this agent' : 'agent ' + m.agent) : '–')))) : null,
    p.sounds.length ? el('h4', {}, 'Sounds') : null,
    ...p.sounds.map((s) => el('div', {}, `${s.kind} from ${s.source} (threat ${fmt(s.threat, 2)}, ${fmt(s.expires_in_s)} s left)`)));
}
function renderIntentions(a) {
  const q = a.intentions && a.intentions.queue;
  if (!q) { fill($('intentions'), el('div', { class: 'muted' }, 'none')); return; }
  const rows = q.intentions.map((i) => el('tr', {}, el('td', {}, i.id), el('td', {}, el('b', {}, i.action)),
    el('td', { class: i.phase === 'running' ? 'ok' : '' }, i.phase), el('td', {}, bar(i.progress || 0, 1)),
    el('td', { class: 'muted' }, i.source || (i.game ? 'game' : '')),
    el('td', { class: 'muted' }, i.args.map((x) => x.entity ?? (x.value != null ? `${fmt(x.value)}${x.unit || ''}` : x.text ?? (x.position ? x.position.map((v) => fmt(v)).join(',') : ''))).join(' '))));
  fill($('intentions'), 
    el('div', { class: 'muted' }, `${q.size}/${q.capacity} queued · done ${a.actions_completed}, failed ${a.actions_failed}`),
    rows.length ? el('table', { class: 'mini' }, el('tr', {}, ...['id', 'action', 'state', 'progress', 'from', 'args'].map((h) => el('th', {}, h))), ...rows)
      : el('div', { class: 'muted' }, 'empty queue'));
}
function planSteps(steps, current) {
  return el('ol', { class: 'path' }, ...steps.map((s, i) => el('li', { style: i === current ? 'color:var(--run);font-weight:600' : 'color:var(--text);font-weight:normal' },
    s.action, s.object ? ` → ${s.object}` : '', el('span', { class: 'at' }, `cost ${fmt(s.cost, 2)}`))));
}
function renderPlan(p, box) {
  if (!p) { fill(box, el('div', { class: 'muted' }, 'This agent does not plan.')); return; }
  fill(box, 
    el('div', { class: 'kv' }, el('span', { class: 'k' }, 'domain'), el('span', {}, p.domain),
      el('span', { class: 'k' }, 'goal'), el('span', {}, p.goal ?? 'none'),
      el('span', { class: 'k' }, 'phase'), el('span', {}, p.phase),
      el('span', { class: 'k' }, 'plan'), el('span', { class: p.plan.status === 'no_plan' ? 'bad' : '' }, `${p.plan.status}, cost ${fmt(p.plan.cost, 2)}, ${p.plan.expansions} expansions`),
      el('span', { class: 'k' }, 'searches'), el('span', {}, `${p.searches} (${p.replans} replans, ${p.step_failures} step failures)`)),
    p.plan.why ? el('div', { class: 'bad' }, p.plan.why) : null,
    planSteps(p.plan.steps, p.plan.step),
    el('details', {}, el('summary', {}, 'facts'), el('pre', {}, JSON.stringify(p.facts, null, 1))));
}
// An agent with several planners (seed 003's ships) shows each under its name.
function renderPlans(a, box) {
  if (!a.planners) { renderPlan(a.planner, box); return; }
  fill(box, ...a.planners.map((p) => {
    const one = el('div');
    renderPlan(p, one);
    return el('div', {}, el('h4', {}, `planner ${p.name}`), one);
  }));
}
function renderInventory(a) {
  const inv = a.inventory || {};
  const items = Object.entries(inv.items || inv).filter(([, v]) => typeof v === 'number');
  fill($('inventory'), 
    items.length ? el('div', { class: 'chips' }, ...items.map(([k, v]) => el('span', { class: 'chip on' }, `${k} × ${v}`))) : el('div', { class: 'muted' }, 'carries nothing'),
    a.work ? el('details', {}, el('summary', {}, 'long action'), el('pre', {}, JSON.stringify(a.work, null, 1))) : null);
}
function eventLine(e) {
  return el('div', { class: 'ev' }, el('span', { class: 't' }, `${fmt(e.time_s, 1).padStart(7)}s `),
    el('span', { class: 'k k-' + e.kind }, e.kind), ' ',
    e.text || (e.intention ? `intention ${e.intention}` : ''),
    e.subject ? el('span', { class: 't' }, ` (subject ${e.subject})`) : null);
}
function appendEvents(box, list, fresh, max) {
  const stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  list.push(...fresh);
  if (list.length > max) list.splice(0, list.length - max);
  if (fresh.length) fill(box, ...list.map(eventLine));
  if (stick) box.scrollTop = box.scrollHeight;
}
async function refreshAgent() {
  if (!state.agentId) return;
  let a;
  try {
    a = await api('/api/agent?id=' + state.agentId);
  } catch (err) {
    fill($('agent-title'), el('span', { class: 'bad' }, err.message));
    return;
  }
  state.agent = a;
  setClock(a.tick);
  $('agent-empty').hidden = true;
  $('agent-body').hidden = false;
  const beh = a.behavior ? a.behavior.name : a.selection && a.selection.behavior;
  fill($('agent-title'), el('b', {}, a.id), ` ${a.archetype} · `, el('span', { style: `color:${colorOf(beh)}` }, beh || '?'),
    ` · ${a.place || 'no place'}${a.asleep ? ' · asleep' : ''}`,
    el('span', { class: 'muted' }, a.position ? `  (${a.position.map((v) => fmt(v)).join(', ')})` : ''));
  renderSelection(a.selection);
  renderTree(a.mbt);
  if (!state.world) state.world = await api('/api/world');
  const stealth = await Promise.all(state.world.players.map((p) => api('/api/stealth?player=' + p.id).catch(() => null)));
  renderPerception(a.perception, stealth.filter((m) => m));
  renderIntentions(a);
  renderPlans(a, $('plan'));
  renderInventory(a);
  const ev = await api(`/api/events?agent=${state.agentId}&after=${state.recorderAfter}`);
  state.recorderAfter = ev.last_seq;
  appendEvents($('recorder'), state.recorder, ev.events, 2000);
}
$('rec-export').addEventListener('click', () => {
  const blob = new Blob([JSON.stringify({ agent: state.agentId, exported_at_tick: state.agent && state.agent.tick, events: state.recorder }, null, 1)], { type: 'application/json' });
  const a = el('a', { href: URL.createObjectURL(blob), download: `npcd-agent-${state.agentId}-events.json` });
  document.body.append(a);
  a.click();
  a.remove();
});
$('rec-clear').addEventListener('click', () => { state.recorder = []; fill($('recorder'), ); });

// ---- places view ----------------------------------------------------------------------------
async function refreshPlaces() {
  if (!state.world) state.world = await api('/api/world');
  const awake = new Map();
  for (const a of state.world.agents) if (!a.asleep && a.place) awake.set(a.place, (awake.get(a.place) || 0) + 1);
  fill($('places-table').tBodies[0], ...state.world.places.map((p) => el('tr', {},
    el('td', {}, el('b', {}, p.name)), el('td', { class: 'state-' + p.state }, p.state), el('td', {}, awake.get(p.name) || 0),
    el('td', {}, p.sleeping_agents), el('td', {}, p.asleep_for_s != null ? fmt(p.asleep_for_s, 0) + ' s' : ''),
    el('td', { class: 'muted' }, `(${fmt(p.bounds.min[0], 0)}, ${fmt(p.bounds.min[1], 0)}) – (${fmt(p.bounds.max[0], 0)}, ${fmt(p.bounds.max[1], 0)})`))));
  const ev = await api(`/api/events?after=${state.placeAfter}&limit=2000`);
  state.placeAfter = ev.last_seq;
  appendEvents($('place-events'), state.placeEvents, ev.events.filter((e) => e.kind === 'place_awake' || e.kind === 'place_asleep'), 500);
}

// ---- planner view ---------------------------------------------------------------------------
function counters(box, items) {
  fill(box, ...items.map(([l, v]) => el('div', { class: 'counter' }, el('div', { class: 'v' }, v), el('div', { class: 'l' }, l))));
}
async function refreshPlanner() {
  const [s, w] = await Promise.all([api('/api/stats'), api('/api/world')]);
  state.world = w;
  counters($('planner-counters'), [['searches', s.plans], ['searches without plan', s.plans_failed], ['plan steps failed', s.plan_steps_failed],
    ['success rate', s.plans ? fmt((100 * (s.plans - s.plans_failed)) / s.plans, 1) + ' %' : '–']]);
  const planners = w.agents.filter((a) => a.plans);
  fill($('planner-agents'), ...planners.map((a) => el('li', { class: a.id === state.plannerId ? 'sel' : '', onclick: () => { state.plannerId = a.id; refreshPlanner(); } },
    el('span', { class: 'id' }, a.id), a.archetype, el('span', { class: 'beh' }, a.behavior))));
  if (!state.plannerId) return;
  const a = await api('/api/agent?id=' + state.plannerId);
  // Several planners: one at a time, chosen by name (the first by default).
  const names = (a.planners || []).map((p) => p.name);
  if (!names.includes(state.plannerName)) state.plannerName = names[0] || '';
  const which = `/api/plan?id=${state.plannerId}&planner=${encodeURIComponent(state.plannerName)}`;
  const t = await api(which);
  const box = $('planner-detail');
  const planBox = el('div');
  renderPlan(t.planner, planBox);
  const trace = t.trace;
  fill(box, el('h3', {}, `Agent ${state.plannerId} `,
      ...names.map((n) => el('button', { class: n === state.plannerName ? 'small sel' : 'small', onclick: () => { state.plannerName = n; refreshPlanner(); } }, n)),
      el('button', { id: 'trace-toggle', class: 'small', onclick: async () => { await api(`${which}&trace=${t.traced ? 'off' : 'on'}`); refreshPlanner(); } },
        t.traced ? 'stop tracing' : 'trace next searches')),
    planBox, el('h3', {}, 'Last traced search'),
    trace ? searchView(trace) : el('div', { class: 'muted' }, t.traced ? 'waiting for the next search…' : 'No search traced yet: switch tracing on.'));
}
function searchView(tr) {
  const r = tr.result;
  return el('div', {},
    el('div', { class: 'kv' }, el('span', { class: 'k' }, 'result'), el('span', { class: r.status === 'no_plan' ? 'bad' : 'ok' }, `${r.status}${r.goal ? ' for ' + r.goal : ''}, cost ${fmt(r.cost, 2)}`),
      el('span', { class: 'k' }, 'work'), el('span', {}, `${r.expansions} expanded, ${r.generated} generated, h0 ${fmt(r.h0, 2)}`),
      r.why ? el('span', { class: 'k' }, 'why') : null, r.why ? el('span', { class: 'bad' }, r.why) : null),
    planSteps(r.steps, -1),
    el('table', { class: 'mini' }, el('tr', {}, ...['node', 'via', 'g', 'h', 'f', 'open conditions', 'children', 'rejected'].map((h) => el('th', {}, h))),
      ...tr.expansions.map((e) => el('tr', {}, el('td', {}, e.node), el('td', {}, e.via || 'start'), el('td', {}, fmt(e.g, 2)), el('td', {}, fmt(e.h, 2)), el('td', {}, fmt(e.f, 2)),
        el('td', { class: 'muted' }, e.open_conditions.join('; ')),
        el('td', {}, e.children.map((c) => `${c.action} (${fmt(c.cost, 2)})`).join(', ')),
        el('td', { class: 'bad rejected' }, e.rejected.map((x) => `${x.action || '?'}: ${x.reason}${x.condition ? ' ' + x.condition : ''}`).join('\n'))))));
}

// ---- health view ----------------------------------------------------------------------------
let health = null;
function drawChart(canvas, samples, series) {
  const c = canvas.getContext('2d');
  const r = canvas.getBoundingClientRect();
  canvas.width = r.width * devicePixelRatio;
  canvas.height = r.height * devicePixelRatio;
  const dpr = devicePixelRatio, W = canvas.width, H = canvas.height, pad = 30 * dpr;
  c.clearRect(0, 0, W, H);
  let max = 0;
  const value = (s, x) => (s.get ? s.get(x) : x[s.key]) || 0;
  for (const s of series) for (const x of samples) max = Math.max(max, value(s, x));
  max = max > 0 ? max * 1.15 : 1;
  c.strokeStyle = '#2e3440'; c.fillStyle = '#7b8494'; c.font = `${10 * dpr}px system-ui`; c.lineWidth = 1;
  for (let i = 0; i <= 4; i++) {
    const y = H - pad / 2 - ((H - pad) * i) / 4;
    c.beginPath(); c.moveTo(pad, y); c.lineTo(W, y); c.stroke();
    c.fillText(fmt((max * i) / 4, max < 10 ? 2 : 0), 2, y + 3 * dpr);
  }
  if (samples.length < 2) return;
  const t0 = samples[0].t_s, t1 = samples[samples.length - 1].t_s;
  c.fillText(`last ${fmt(t1 - t0, 0)} s`, W - 70 * dpr, 10 * dpr);
  for (const s of series) {
    c.strokeStyle = s.color; c.lineWidth = 1.6 * dpr;
    c.beginPath();
    samples.forEach((x, i) => {
      const px = pad + ((W - pad) * (x.t_s - t0)) / Math.max(1e-9, t1 - t0);
      const py = H - pad / 2 - ((H - pad) * value(s, x)) / max;
      if (i) c.lineTo(px, py); else c.moveTo(px, py);
    });
    c.stroke();
  }
}
const phaseColors = ['#5fb3f9', '#7fd18b', '#f9a45f', '#c792ea', '#f0c05a', '#f07178', '#89ddff', '#a3be8c'];
function drawCharts() {
  if (!health || state.view !== 'health') return;
  const s = health.samples;
  drawChart($('chart-tick'), s, [{ key: 'tick_mean_ms', color: '#5fb3f9' }, { key: 'tick_max_ms', color: '#f9a45f' }]);
  // One line per tick phase: which part of the tick the time went to.
  const phases = health.phases || [];
  const phaseSeries = phases.map((p, i) => ({ name: p, color: phaseColors[i % phaseColors.length], get: (x) => (x.phase_mean_ms || {})[p] }));
  fill($('phase-legend'), ...phaseSeries.map((p) => el('span', { class: 'chip', style: `color:${p.color}` }, p.name)));
  drawChart($('chart-phases'), s, phaseSeries);
  drawChart($('chart-agents'), s, [{ key: 'agents_awake', color: '#7fd18b' }, { key: 'agents_asleep', color: '#7b8494' }]);
  drawChart($('chart-actions'), s, [{ key: 'actions_per_s', color: '#f0c05a' }]);
  drawChart($('chart-errors'), s, [{ key: 'errors_per_s', color: '#f07178' }]);
}
async function refreshHealth() {
  const [h, s] = await Promise.all([api('/api/health'), api('/api/stats')]);
  health = h;
  setClock(s.tick, s.sim_time_s);
  counters($('health-counters'), [['ticks/s', fmt(s.ticks_per_second, 1)], ['tick p50', fmt(s.tick_p50_ms, 2) + ' ms'], ['tick p99', fmt(s.tick_p99_ms, 2) + ' ms'],
    ['overruns', s.tick_overruns], ['agents awake', s.agents_awake], ['agents asleep', s.agents_asleep],
    ['places awake', `${s.places_awake}/${s.places}`], ['clients', s.clients], ['actions', s.actions_emitted], ['errors', s.errors]]);
  drawCharts();
}

// ---- refresh loop -----------------------------------------------------------------------------
const refreshers = { world: refreshWorld, agent: refreshAgent, places: refreshPlaces, planner: refreshPlanner, health: refreshHealth };
const periods = { world: 250, agent: 400, places: 1000, planner: 1000, health: 1000 };
let busy = false, timer = null;
async function refresh() {
  clearTimeout(timer);
  if (!busy) {
    busy = true;
    try {
      await refreshers[state.view]();
      setStatus(true, 'live');
    } catch (err) {
      setStatus(false, err.message);
    }
    busy = false;
  }
  timer = setTimeout(refresh, periods[state.view]);
}
if (params.get('agent')) openAgent(parseInt(params.get('agent'), 10));
else { resizeMap(); refresh(); }
