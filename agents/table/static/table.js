// hexdojo table: draws what the server sends and sends clicks back. No rules here: the
// legal menus, odds, advice, reasons and the board's geometry all come from the engine.
'use strict';
const $ = id => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';
let V = null, CAT = null, path = [], sel = 0, sheets = {}, rules = null;

function esc(s) { return String(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c])); }
function say(msg) { $('error').textContent = msg || ''; }

async function api(url, body) {
  const opt = body === undefined ? {} : {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)};
  let r;
  try { r = await fetch(url, opt); } catch (e) { say('the table server does not answer (' + e.message + ')'); return null; }
  const data = await r.json().catch(() => ({error: 'the server sent no JSON (' + r.status + ')'}));
  if (!r.ok || data.error) { say(data.error); return null; }
  say('');
  return data;
}
// Each answer is the whole view after that request; two requests in flight (a click while a
// big load is still being read) can be answered out of order, so only the newest request's
// view is drawn: an older one arriving last would put the page back where it was.
let asked = 0;
async function act(url, body) {
  const mine = ++asked;
  const v = await api(url, body);
  if (v && mine === asked) { V = v; path = []; draw(); }
  return v;
}

// ------------------------------------------------------------------ the board
function hexPoints(x, y, s) {
  const p = [];
  for (let i = 0; i < 6; i++) { const a = Math.PI / 180 * (60 * i - 30); p.push((x + s * Math.cos(a)).toFixed(1) + ',' + (y + s * Math.sin(a)).toFixed(1)); }
  return p.join(' ');
}
function fighterSvg(f, s) {
  const r = s * (f.small ? 0.4 : 0.55);
  const fill = f.out ? '#111' : (f.prone ? '#fff' : f.colour);
  let g = `<g class="fighter" id="f${f.idx}" data-idx="${f.idx}">`;
  if (f.deciding) g += `<circle class="deciding-ring" cx="${f.x}" cy="${f.y}" r="${r + 4}"/>`;
  if (f.status) g += `<circle cx="${f.x}" cy="${f.y}" r="${r + 1.5}" fill="none" stroke="#e07000" stroke-width="2"/>`;
  g += `<circle class="disc" cx="${f.x}" cy="${f.y}" r="${r}" fill="${fill}" stroke="${f.colour}" stroke-width="${f.prone ? 4 : 1}"/>`;
  const tx = f.x + f.fx * r * 1.35, ty = f.y + f.fy * r * 1.35, nx = -f.fy * r * 0.35, ny = f.fx * r * 0.35;
  const bx = f.x + f.fx * r * 0.8, by = f.y + f.fy * r * 0.8;
  g += `<polygon class="arrow" points="${tx},${ty} ${bx + nx},${by + ny} ${bx - nx},${by - ny}" fill="#141414"/>`;
  g += `<text x="${f.x}" y="${f.y + 4}" text-anchor="middle" font-size="11" font-weight="bold" fill="${f.prone || f.out ? f.colour : '#fff'}">${esc(f.letter)}</text>`;
  // two on one hex (close combat): the left one's words end at its centre, the right one's start there
  const anchor = f.slot < 0 ? 'end' : (f.slot > 0 ? 'start' : 'middle'), lx = f.x + f.slot * 2;
  g += `<text x="${lx}" y="${f.y - r - 3}" text-anchor="${anchor}" font-size="7.5">${esc(f.name)}${f.mounted ? ' ▲' + f.height : ''}</text>`;
  const bits = ['AP ' + f.ap];
  if (f.worst) bits.push(f.worst);
  if (f.status) bits.push(f.status);
  if (f.prone) bits.push('prone');
  if (f.out) bits.push(f.out);
  g += `<text x="${lx}" y="${f.y + r + 8}" text-anchor="${anchor}" font-size="6.5" fill="#333">${esc(bits.join(' · '))}</text>`;
  if (f.weapons) g += `<text x="${lx}" y="${f.y + r + 15}" text-anchor="${anchor}" font-size="6" fill="#664">${esc(f.weapons)}</text>`;
  return g + '</g>';
}
function drawBoard() {
  const B = V.board, s = B.hex;
  let svg = `<svg id="board" xmlns="${NS}" viewBox="0 0 ${B.width} ${B.height}">`;
  for (const [q, r, x, y] of B.cells) svg += `<polygon class="hex" id="hex_${q}_${r}" data-q="${q}" data-r="${r}" points="${hexPoints(x, y, s)}"/>`;
  const at = {};
  for (const f of V.fighters) at[f.idx] = f;
  for (const h of V.holds) {
    const a = at[h.holder], b = at[h.held];
    const rb = s * (b.small ? 0.4 : 0.55) + 3;
    svg += `<circle class="hold-ring" cx="${b.x}" cy="${b.y}" r="${rb}" fill="none" stroke="#f0c814" stroke-width="3"/>`;
    svg += `<line class="hold" x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"><title>${esc(a.name)} holds ${esc(b.name)} (${esc(h.kind)}${h.location ? ' on ' + esc(h.location) : ''})</title></line>`;
  }
  for (const f of V.fighters) svg += fighterSvg(f, s);
  $('boardbox').innerHTML = svg + '</svg>';
  for (const el of document.querySelectorAll('.fighter')) {
    el.addEventListener('pointerdown', startDrag);
    el.addEventListener('mouseenter', e => showTip(+el.dataset.idx, e));
    el.addEventListener('mouseleave', () => { $('tip').hidden = true; });
  }
}
function showTip(i, e) {
  const f = V.fighters[i], box = $('boardcol').getBoundingClientRect(), tip = $('tip');
  tip.textContent = f.sheet.join('\n') + '\n' + f.line;
  tip.style.left = Math.min(e.clientX - box.left + 12, box.width - 260) + 'px';
  tip.style.top = (e.clientY - box.top + 12) + 'px';
  tip.hidden = false;
}

// drag a fighter onto a hex: the position's field fighters[i].pos, checked by the server
let drag = null;
function hexAt(x, y) { const el = document.elementsFromPoint(x, y).find(e => e.classList && e.classList.contains('hex')); return el || null; }
function startDrag(e) {
  const i = +e.currentTarget.dataset.idx;
  drag = {i, moved: false, over: null};
  selectFighter(i);
  e.preventDefault();
}
document.addEventListener('pointermove', e => {
  if (!drag) return;
  drag.moved = true;
  const h = hexAt(e.clientX, e.clientY);
  if (drag.over && drag.over !== h) drag.over.classList.remove('drop');
  if (h) h.classList.add('drop');
  drag.over = h;
});
document.addEventListener('pointerup', e => {
  if (!drag) return;
  const d = drag; drag = null;
  const h = hexAt(e.clientX, e.clientY);
  if (d.over) d.over.classList.remove('drop');
  if (!d.moved || !h) return;
  const f = V.fighters[d.i];
  if (+h.dataset.q === f.q && +h.dataset.r === f.r) return;
  edit(sc => { sc.fighters[d.i].pos = [+h.dataset.q, +h.dataset.r]; });
});

// ------------------------------------------------------------------ the position editor
function edit(change) {
  const sc = JSON.parse(JSON.stringify(V.scenario));
  change(sc);
  return act('/api/setup', {scenario: sc});
}
function options(el, items, value) {
  el.innerHTML = items.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join('');
  if (value !== undefined) el.value = value;
}
function selectFighter(i) { sel = i; $('pf').value = String(i); drawEditor(); }
function drawEditor() {
  const n = V.fighters.length;
  if (sel >= n) sel = 0;
  options($('pf'), V.fighters.map(f => [f.idx, f.letter + ' ' + f.name]), String(sel));
  const fd = V.scenario.fighters[sel];
  $('ap').value = fd.ap; $('prone').checked = fd.prone; $('mounted').checked = !!fd.mounted;
  $('height').value = fd.height || 0;
  options($('pstatus'), CAT.statuses.map(s => [s, s || 'steady']), fd.status);
  const arms = [['', '(empty)']].concat(CAT.weapons.map(w => [w, w]));
  options($('hright'), arms, V.fighters[sel].hands[0] || '');
  options($('hleft'), arms, V.fighters[sel].hands[1] || '');
  $('wounds').innerHTML = fd.wounds.map(([loc, lv], k) => `<span class="tag">${esc(lv)} ${esc(loc)}<button data-w="${k}" title="heal">×</button></span>`).join('') || 'none';
  const mine = V.scenario.holds.map((h, k) => [h, k]).filter(([h]) => h.holder === sel || h.held === sel);
  $('holds').innerHTML = mine.map(([h, k]) => `<span class="tag">${esc(V.fighters[h.holder].letter)} holds ${esc(V.fighters[h.held].letter)} (${esc(h.kind)}${h.location ? ' ' + esc(h.location) : ''})<button data-h="${k}" title="let go">×</button></span>`).join('') || 'none';
  $('holder').textContent = V.fighters[sel].letter;
  options($('hheld'), V.fighters.filter(f => f.idx !== sel).map(f => [f.idx, f.letter + ' ' + f.name]));
  const ph = V.scenario.phase;
  options($('phase'), [['', 'the turn’s phase choice']].concat(V.fighters.map(f => [f.idx, f.letter + ' ' + f.name + '’s action'])), ph === undefined ? '' : String(ph));
}

// ------------------------------------------------------------------ deciding
function drawDecision() {
  const d = V.decision;
  $('who').textContent = d ? `${d.letter} ${d.name} to decide: ${d.kind.replace('_', '-')}${d.about ? ' (' + d.about + ')' : ''}, ${d.ap} AP` + (d.human ? '' : ` (${V.controllers[d.fighter]})`) : (V.result || 'the fight is over');
  $('situation').innerHTML = d ? d.situation.map(s => `<li>${esc(s)}</li>`).join('') : '';
  $('npc').disabled = !d;
  drawMenu(V.menu);
}
function drawMenu(m) {
  const ol = $('menu');
  $('crumbs').textContent = m && m.title ? m.title : '';
  $('back').disabled = path.length === 0;
  if (!m) { ol.innerHTML = V.decision && !V.decision.human ? '<li>an NPC decides: press “the NPC decides this”, or ask advice</li>' : ''; return; }
  ol.innerHTML = m.entries.map((e, k) => `<li><button class="entry" data-k="${k}"><span>${m.dice ? '' : e.number + '. '}${esc(e.label)}${e.count > 1 ? ` <span class="opens">▸ ${e.count}</span>` : ''}</span><span class="note">${esc(e.note)}</span></button></li>`).join('');
  ol.onclick = ev => {
    const b = ev.target.closest('button.entry');
    if (!b) return;
    const e = m.entries[+b.dataset.k];
    if (e.choice) act('/api/choose', {choice: e.choice});
    else openMenu(path.concat([+b.dataset.k]));
  };
}
async function openMenu(p) {
  const m = await api('/api/menu', {path: p});
  if (m) { path = p; drawMenu(m); }
}

// ------------------------------------------------------------------ advice
async function advise() {
  const a = await api('/api/advise', {agent: $('agent').value});
  const t = $('advice');
  if (!a) { t.innerHTML = ''; return; }
  $('advisewhat').textContent = `${a.agent} for ${a.fighter} (${a.kind}), by ${a.what}` + (a.folded ? `; ${a.folded} turning variants folded` : '') + a.warnings.map(w => '\n' + w).join('');
  t.innerHTML = a.rows.map((r, k) => `<tr class="pick" data-k="${k}"><td>${k + 1}.</td><td>${esc(r.label)}</td><td>${esc(r.value)}</td><td>${esc(r.odds)}</td></tr>`).join('');
  t.onclick = ev => { const tr = ev.target.closest('tr.pick'); if (tr) act('/api/choose', {choice: a.rows[+tr.dataset.k].choice}); };
}

// ------------------------------------------------------------------ log, replay, players
function drawLog() {
  let html = V.start_log.map(l => `<div class="ev">${esc(l)}</div>`).join('');
  html += V.steps.map(s => `<li class="${s.k === V.at - 1 ? 'current' : ''}">${esc(s.text)}<button class="goto" data-k="${s.k}" title="the position before this decision">back to here</button>${s.events.map(l => `<div class="ev">${esc(l)}</div>`).join('')}</li>`).join('');
  $('log').innerHTML = html;
  $('log').scrollTop = $('log').scrollHeight;
  $('step').textContent = `decision ${V.at} / ${V.length}`;
  $('slider').max = V.length; $('slider').value = V.at;
  $('prev').disabled = $('first').disabled = V.at === 0;
  $('next').disabled = $('last').disabled = V.at >= V.length;
  $('undo').disabled = !V.steps.some(s => s.human);
}
function drawSlots() {
  const box = $('slots');
  const fighters = V.game.scene ? V.fighters.map(f => f.name) : V.game.fighters;
  const n = Math.max(fighters.length, 2);
  const names = CAT.presets.concat(Object.keys(sheets));
  let html = '';
  for (let i = 0; i < Math.max(n, 4); i++) {
    const letter = 'ABCD'[i];
    const opts = (i < 2 ? [] : [['', '(nobody)']]).concat(names.map(p => [p, p]));
    html += `<div class="slot">${letter} <select class="fsel" data-i="${i}">${opts.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join('')}</select>
      played by <input class="ctl" data-i="${i}" list="agents" size="14" value="${esc(V.controllers[i] || (i === 0 ? 'human' : 'greedy'))}"></div>`;
  }
  box.innerHTML = html;
  box.querySelectorAll('.fsel').forEach(s => { const i = +s.dataset.i; s.value = V.game.scene ? '' : (V.game.fighters[i] || ''); if (!s.value && i < 2) s.value = 'chu'; });
  box.querySelectorAll('.ctl').forEach(c => c.addEventListener('change', () => {
    const ctl = [...box.querySelectorAll('.ctl')].slice(0, V.fighters.length).map(x => x.value.trim() || 'human');
    act('/api/controllers', {controllers: ctl});
  }));
  $('scene').value = V.game.scene || '';
  $('seed').value = V.game.seed;
}
function draw() {
  $('header').textContent = V.header;
  $('result').textContent = V.result;
  $('status').textContent = V.fighters.map(f => f.line).join('\n');
  drawBoard(); drawEditor(); drawDecision(); drawLog(); drawSlots();
  $('advice').innerHTML = ''; $('advisewhat').textContent = '';
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], {type: 'application/octet-stream'}));
  a.download = name; document.body.appendChild(a); a.click(); a.remove();
}
function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  const rd = new FileReader();
  rd.onload = () => { then(f.name, String(rd.result)); input.value = ''; };
  rd.readAsText(f);
}
function newFight() {
  const slots = [...document.querySelectorAll('#slots .slot')];
  const fighters = [], controllers = [];
  for (const s of slots) {
    const f = s.querySelector('.fsel').value, c = s.querySelector('.ctl').value.trim() || 'human';
    if (f || $('scene').value) { fighters.push(f || 'chu'); controllers.push(c); }
  }
  const body = {fighters: fighters.slice(0, 4), controllers: controllers.slice(0, 4), seed: Math.max(0, parseInt($('seed').value, 10) || 0)};
  if ($('scene').value) body.scene = $('scene').value;
  const used = {};
  for (const f of fighters) if (sheets[f] !== undefined) used[f] = sheets[f];
  body.sheets = used;
  if (rules) { body.rules = rules.text; body.rules_name = rules.name; }
  return act('/api/new', body);
}

// a fight file, or a lab report's replay page: its example fights in a list beside
let report = null;
async function openFight(name, text, index) {
  const v = await act('/api/load', {name, text, index});
  if (!v) return;
  const ex = $('example');
  report = v.examples && v.examples.length ? {name, text} : null;
  ex.hidden = !report;
  if (report) options(ex, v.examples.map((t, k) => [k, t]), String(index));
}

function wire() {
  $('pf').onchange = () => selectFighter(+$('pf').value);
  $('rotl').onclick = () => edit(sc => { sc.fighters[sel].facing = (sc.fighters[sel].facing + 1) % 6; });
  $('rotr').onclick = () => edit(sc => { sc.fighters[sel].facing = (sc.fighters[sel].facing + 5) % 6; });
  $('ap').onchange = () => edit(sc => { sc.fighters[sel].ap = parseInt($('ap').value, 10); });
  $('pstatus').onchange = () => edit(sc => { sc.fighters[sel].status = $('pstatus').value; });
  $('prone').onchange = () => edit(sc => { sc.fighters[sel].prone = $('prone').checked; });
  $('mounted').onchange = () => edit(sc => { sc.fighters[sel].mounted = $('mounted').checked; });
  $('height').onchange = () => edit(sc => { sc.fighters[sel].height = parseInt($('height').value, 10); });
  const hands = () => edit(sc => { sc.fighters[sel].hands = [$('hright').value || null, $('hleft').value || null]; });
  $('hright').onchange = hands; $('hleft').onchange = hands;
  $('addwound').onclick = () => edit(sc => { sc.fighters[sel].wounds.push([$('wloc').value, $('wlevel').value]); });
  $('wounds').onclick = e => { const b = e.target.closest('button[data-w]'); if (b) edit(sc => { sc.fighters[sel].wounds.splice(+b.dataset.w, 1); }); };
  $('holds').onclick = e => { const b = e.target.closest('button[data-h]'); if (b) edit(sc => { sc.holds.splice(+b.dataset.h, 1); }); };
  $('addhold').onclick = () => edit(sc => { const h = {holder: sel, held: +$('hheld').value, kind: $('hkind').value}; if ($('hloc').value) h.location = $('hloc').value; sc.holds.push(h); });
  $('phase').onchange = () => edit(sc => { if ($('phase').value === '') delete sc.phase; else sc.phase = +$('phase').value; });
  $('back').onclick = () => { if (path.length) { const p = path.slice(0, -1); if (p.length) openMenu(p); else { path = []; drawMenu(V.menu); } } };
  $('npc').onclick = () => act('/api/npc', {agent: $('agent').value});
  $('undo').onclick = () => act('/api/undo', {});
  $('advise').onclick = advise;
  $('log').onclick = e => { const b = e.target.closest('button.goto'); if (b) act('/api/undo', {to: +b.dataset.k}); };
  const go = k => act('/api/goto', {to: Math.max(0, Math.min(V.length, k))});
  $('first').onclick = () => go(0); $('prev').onclick = () => go(V.at - 1);
  $('next').onclick = () => go(V.at + 1); $('last').onclick = () => go(V.length);
  $('slider').onchange = () => go(+$('slider').value);
  document.addEventListener('keydown', e => {  // replay's steps, outside the form fields
    if (e.target.closest('input, select, textarea') || !V) return;
    if (e.key === 'ArrowRight' && V.at < V.length) go(V.at + 1);
    if (e.key === 'ArrowLeft' && V.at > 0) go(V.at - 1);
  });
  $('newfight').onclick = newFight;
  $('sheetfile').onchange = () => readFile($('sheetfile'), (name, text) => { sheets[name] = text; drawSlots(); $('rulesname').textContent = `sheet ${name} read: pick it in a slot, then New fight`; });
  $('rulesfile').onchange = () => readFile($('rulesfile'), (name, text) => { rules = {name, text}; $('rulesname').textContent = name; });
  $('export').onclick = async () => { const r = await api('/api/export'); if (r) download(r.name, r.text); };
  $('save').onclick = async () => { const r = await api('/api/fight'); if (r) download(r.name, r.text); };
  $('importfile').onchange = () => readFile($('importfile'), (name, text) => act('/api/import', {name, text}));
  $('loadfile').onchange = () => readFile($('loadfile'), (name, text) => openFight(name, text, 0));
  $('example').onchange = () => { if (report) openFight(report.name, report.text, +$('example').value); };
}

window.addEventListener('load', async () => {
  CAT = await api('/api/catalogue');
  if (!CAT) return;
  options($('scene'), [['', '(none: the fighters above)']].concat(CAT.scenes.map(s => [s, s])));
  $('agents').innerHTML = ['human'].concat(CAT.agents).map(a => `<option value="${esc(a)}">`).join('');
  options($('wloc'), CAT.locations.map(l => [l, l]));
  options($('wlevel'), CAT.wound_levels.map(l => [l, l]));
  options($('hkind'), CAT.hold_kinds.map(k => [k, k]));
  options($('hloc'), [['', '(no location)']].concat(CAT.locations.map(l => [l, l])));
  wire();
  V = await api('/api/view');
  if (V) draw();
  document.body.dataset.ready = '1';
});
