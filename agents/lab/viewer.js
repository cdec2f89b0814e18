const FIGHTS = JSON.parse(document.getElementById('fights').textContent);
let fi = 0, k = 0, timer = null;
const $ = id => document.getElementById(id);
function hexPath(x, y, s) {
  let p = [];
  for (let i = 0; i < 6; i++) { const a = Math.PI / 180 * (60 * i - 30);
    p.push((x + s * Math.cos(a)).toFixed(1) + ',' + (y + s * Math.sin(a)).toFixed(1)); }
  return p.join(' ');
}
function draw() {
  const F = FIGHTS[fi], fr = F.frames[k], s = F.hex;
  let svg = `<svg id="board" xmlns="http://www.w3.org/2000/svg" width="${F.width}" height="${F.height}">`;
  for (const [x, y] of F.cells) svg += `<polygon points="${hexPath(x, y, s)}" fill="#e8e2d2" stroke="#786e64"/>`;
  for (const [x1, y1, x2, y2] of fr.holds) svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#f0c814" stroke-width="4"/>`;
  for (const f of fr.fighters) {
    const r = s * (f.small ? 0.4 : 0.55);
    const fill = f.out ? '#000' : (f.prone ? 'none' : f.colour);
    svg += `<circle class="fighter" cx="${f.x}" cy="${f.y}" r="${r}" fill="${fill}" stroke="${f.colour}" stroke-width="${f.prone ? 5 : 1}"/>`;
    svg += `<circle cx="${f.x + f.fx * r * 0.7}" cy="${f.y + f.fy * r * 0.7}" r="${r * 0.28}" fill="#141414"/>`;
    svg += `<text x="${f.x}" y="${f.y + r + 12}" text-anchor="middle" font-size="12">${f.letter}</text>`;
  }
  $('boardbox').innerHTML = svg + '</svg>';
  $('step').textContent = `step ${k} / ${F.frames.length - 1}`;
  $('header').textContent = fr.header;
  $('what').textContent = fr.what;
  $('status').textContent = fr.status.join('\n');
  $('events').textContent = fr.events.join('\n') || '(no new events)';
  $('log').textContent = F.frames.slice(1, k + 1).map(
    (g, n) => (n + 1) + '. ' + g.what + (g.events.length ? '\n    ' + g.events.join('\n    ') : '')).join('\n');
  $('slider').max = F.frames.length - 1; $('slider').value = k;
}
function go(n) { const F = FIGHTS[fi]; k = Math.max(0, Math.min(F.frames.length - 1, n)); draw(); }
function pick(n) { fi = Math.max(0, Math.min(FIGHTS.length - 1, n)); k = 0; $('fight').value = fi;
  const F = FIGHTS[fi]; $('title').textContent = F.title + ' (seed ' + F.seed + '): ' + F.result; draw(); }
function play() { if (timer) { clearInterval(timer); timer = null; $('play').textContent = 'play'; return; }
  $('play').textContent = 'pause';
  timer = setInterval(() => { if (k >= FIGHTS[fi].frames.length - 1) play(); else go(k + 1); }, 600); }
window.addEventListener('load', () => {
  const sel = $('fight');
  FIGHTS.forEach((F, i) => { const o = document.createElement('option'); o.value = i; o.textContent = i + ': ' + F.title; sel.appendChild(o); });
  sel.onchange = () => pick(+sel.value);
  $('prev').onclick = () => go(k - 1); $('next').onclick = () => go(k + 1); $('play').onclick = play;
  $('slider').oninput = () => go(+$('slider').value);
  document.addEventListener('keydown', e => { if (e.key === 'ArrowRight') go(k + 1); if (e.key === 'ArrowLeft') go(k - 1); });
  const m = /^#(\d+)/.exec(location.hash); pick(m ? +m[1] : 0);
});
window.addEventListener('hashchange', () => { const m = /^#(\d+)/.exec(location.hash); if (m) pick(+m[1]); });
