/// The live page at the inspector's address: one self-contained document (no
/// request leaves the inspector), updated through Server-Sent Events at `/events`.
///
/// Every payload and spec text reaches the document through `textContent`, never as
/// markup, so a hostile event name renders as text. The address's fragment sets the
/// filters: `#q=checkout&status=invalid`. With plan versions, each call shows the
/// version it was checked against, and the table and coverage are grouped by version.
package enum InspectorPage {
    package static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self'">
<title>Anna inspector</title>
<style>
:root { --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --refused: #8250df; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 10px 16px; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; }
h1 { font-size: 17px; margin: 0 12px 0 0; }
h2 { font-size: 15px; margin: 0 0 8px; }
.count { padding: 3px 10px; border-radius: 12px; background: #eaeef2; font-weight: 600; }
.count.valid { background: #dafbe1; color: var(--ok); } .count.invalid { background: #ffebe9; color: var(--bad); }
.count.warning { background: #fff8c5; color: var(--warn); } .count.rejected { background: #fbefff; color: var(--refused); }
#live { margin-left: auto; color: var(--muted); } #live.on::before { content: "● "; color: var(--ok); } #live.off::before { content: "● "; color: var(--bad); }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; padding: 16px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; }
.filters { display: flex; gap: 8px; margin-bottom: 8px; }
input, select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
ol { list-style: none; margin: 0; padding: 0; }
li.call { border-left: 4px solid var(--line); padding: 6px 8px; margin: 0 0 6px; background: #fff; border-bottom: 1px solid #eaeef2; cursor: pointer; }
li.call[data-status="valid"] { border-left-color: var(--ok); } li.call[data-status="warning"] { border-left-color: var(--warn); }
li.call[data-status="invalid"] { border-left-color: var(--bad); } li.call[data-status="rejected"] { border-left-color: var(--refused); }
li.call[hidden] { display: none; }
.badge { display: inline-block; min-width: 64px; text-align: center; font-size: 12px; font-weight: 600; border-radius: 10px; padding: 0 6px; color: #fff; }
.badge.valid { background: var(--ok); } .badge.warning { background: var(--warn); } .badge.invalid { background: var(--bad); } .badge.rejected { background: var(--refused); }
.type { color: var(--muted); margin: 0 6px; } .name { font-weight: 600; } .time { float: right; color: var(--muted); font-size: 12px; }
ul.findings { margin: 4px 0 0 18px; padding: 0; } ul.findings li { margin: 2px 0; }
.loc { color: var(--muted); font-family: ui-monospace, Menlo, monospace; font-size: 12px; margin-left: 6px; }
pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; } th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eaeef2; }
th.n { width: 4.2em; } th.t { width: 7.5em; } td:first-child, .name, .loc, ul.findings li, #coverage li { overflow-wrap: anywhere; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } td.bad { color: var(--bad); font-weight: 600; }
tr.undeclared td:first-child::after { content: " (not in the plan)"; color: var(--bad); font-size: 12px; }
#coverage li { padding: 2px 0; } .muted { color: var(--muted); }
.version { font-size: 12px; border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; margin-right: 6px; color: var(--muted); }
tr.group td, #coverage li.group { font-weight: 600; background: #f6f8fa; }
</style>
</head>
<body>
<header>
<h1>Anna inspector</h1>
<span class="count" id="total-calls">0 calls</span>
<span class="count valid" id="total-valid">0 valid</span>
<span class="count warning" id="total-warning">0 with warnings</span>
<span class="count invalid" id="total-invalid">0 invalid</span>
<span class="count rejected" id="total-rejected">0 refused</span>
<span id="live" class="off">connecting</span>
</header>
<main>
<section>
<h2>Calls, newest first</h2>
<div class="filters">
<input id="q" type="search" placeholder="Filter by name" aria-label="Filter by name">
<select id="status" aria-label="Filter by status">
<option value="">All statuses</option><option value="valid">Valid</option><option value="warning">With warnings</option>
<option value="invalid">Invalid</option><option value="rejected">Refused requests</option>
</select>
<span class="muted" id="shown"></span>
</div>
<ol id="calls"></ol>
</section>
<div>
<section>
<h2>Events and calls</h2>
<table><thead><tr><th>Name</th><th class="n">Seen</th><th class="n">Valid</th><th class="n">Invalid</th><th class="t">Last seen</th></tr></thead><tbody id="table"></tbody></table>
</section>
<section style="margin-top:16px">
<h2>Coverage: <span id="coverage-count">0 of 0</span></h2>
<p class="muted">Declared events and screens not seen yet:</p>
<ol id="coverage"></ol>
</section>
</div>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = String(text); return e; };
const state = { lastId: 0, totals: { calls: 0, validCalls: 0, invalidCalls: 0, callsWithWarnings: 0, rejectedRequests: 0 }, rows: new Map(), declared: [], seen: new Set(), versions: null };
const rowKey = (c) => c.type + "\u0000" + c.name + (c.version ? "\u0000" + c.version : "");
const markSeen = (c) => {
  const kind = c.type === "track" ? "event" : (c.type === "screen" || c.type === "page") ? "screen" : null;
  if (!kind) return;
  state.seen.add(kind + ":" + c.name); if (c.version) state.seen.add(c.version + "\u0000" + kind + ":" + c.name);
};
const declaredIn = (c) => {
  const version = state.versions && state.versions.find((v) => v.version === c.version);
  const list = version ? version.declared : state.declared;
  return c.type === "track" ? list.some((d) => d.kind === "event" && d.name === c.name) : (c.type === "screen" || c.type === "page") ? list.some((d) => d.kind === "screen" && d.name === c.name) : true;
};
const params = new URLSearchParams(location.hash.slice(1));
$("q").value = params.get("q") || "";
$("status").value = params.get("status") || "";
const label = (c) => (c.type === "track" || c.type === "screen" || c.type === "page") ? c.name : (c.type === "request" ? "HTTP " + c.name : c.name);
const matches = (li) => {
  const q = $("q").value.trim().toLowerCase(), s = $("status").value;
  return (!q || li.dataset.name.toLowerCase().includes(q) || li.dataset.type.toLowerCase().includes(q)) && (!s || li.dataset.status === s);
};
function applyFilters() {
  let shown = 0, all = 0;
  for (const li of $("calls").children) { all++; li.hidden = !matches(li); if (!li.hidden) shown++; }
  $("shown").textContent = shown + " of " + all + " shown";
  const h = new URLSearchParams(); if ($("q").value) h.set("q", $("q").value); if ($("status").value) h.set("status", $("status").value);
  const hash = h.toString(); if (("#" + hash) !== location.hash && (hash || location.hash)) history.replaceState(null, "", hash ? "#" + hash : location.pathname);
}
$("q").addEventListener("input", applyFilters); $("status").addEventListener("change", applyFilters);
function callItem(c) {
  const li = el("li", "call");
  li.dataset.status = c.status; li.dataset.name = c.name; li.dataset.type = c.type; li.dataset.id = c.id;
  li.append(el("span", "badge " + c.status, c.status === "warning" ? "warning" : c.status), el("span", "type", c.type));
  if (c.version) { li.dataset.version = c.version; li.append(el("span", "version", c.version)); }
  li.append(el("span", "name", label(c)));
  li.append(el("span", "time", new Date(c.time * 1000).toLocaleTimeString()));
  if (c.findings.length) {
    const ul = el("ul", "findings");
    for (const f of c.findings) { const item = el("li", f.severity === "error" ? "" : "muted", f.message); item.dataset.rule = f.rule; if (f.location) item.append(el("span", "loc", f.location)); ul.append(item); }
    li.append(ul);
  }
  li.addEventListener("click", async () => {
    const open = li.querySelector("pre"); if (open) { open.remove(); return; }
    const pre = el("pre", "", "loading…"); li.append(pre);
    try { const r = await fetch("/api/calls/" + c.id); const body = await r.json(); let text = body.json; try { text = JSON.stringify(JSON.parse(body.json), null, 2); } catch (e) {} pre.textContent = text; }
    catch (e) { pre.textContent = "This call is no longer kept (the inspector keeps the latest ones)."; }
  });
  return li;
}
function renderTotals() {
  const t = state.totals;
  $("total-calls").textContent = t.calls + " calls"; $("total-valid").textContent = t.validCalls + " valid";
  $("total-warning").textContent = t.callsWithWarnings + " with warnings"; $("total-invalid").textContent = t.invalidCalls + " invalid";
  $("total-rejected").textContent = t.rejectedRequests + " refused";
}
function renderTable() {
  const body = $("table"); body.replaceChildren();
  const rows = [...state.rows.values()].sort((a, b) => b.lastSeen - a.lastSeen);
  const groups = [];
  if (state.versions) {
    const order = state.versions.map((v) => v.version);
    for (const r of rows) if (r.version && !order.includes(r.version)) order.push(r.version);
    for (const v of order) { const inGroup = rows.filter((r) => r.version === v); if (inGroup.length) groups.push([v, inGroup]); }
    const rest = rows.filter((r) => !r.version); if (rest.length) groups.push([null, rest]);
  } else groups.push([null, rows]);
  for (const [version, inGroup] of groups) {
  if (version !== null) { const head = el("tr", "group"); head.dataset.version = version; const td = el("td", "", "Version " + version); td.colSpan = 5; head.append(td); body.append(head); }
  for (const r of inGroup) {
    const tr = el("tr", r.declared ? "" : "undeclared"); tr.dataset.name = r.name; if (r.version) tr.dataset.version = r.version;
    tr.append(el("td", "", (r.type === "track" ? "" : r.type + " ") + r.name), el("td", "num", r.seen), el("td", "num", r.valid), el("td", "num" + (r.invalid ? " bad" : ""), r.invalid), el("td", "", new Date(r.lastSeen * 1000).toLocaleTimeString()));
    body.append(tr);
  }
  }
}
function renderCoverage() {
  const list = $("coverage"); list.replaceChildren();
  let seen = 0;
  for (const d of state.declared) {
    if (state.seen.has(d.kind + ":" + d.name)) { seen++; continue; }
    const li = el("li", "", d.kind + " " + d.name); li.dataset.name = d.name; li.append(el("span", "loc", d.location)); list.append(li);
  }
  $("coverage-count").textContent = seen + " of " + state.declared.length + " seen";
  for (const v of state.versions || []) {
    const head = el("li", "group"); head.dataset.version = v.version; list.append(head);
    let versionSeen = 0;
    for (const d of v.declared) {
      if (state.seen.has(v.version + "\u0000" + d.kind + ":" + d.name)) { versionSeen++; continue; }
      const li = el("li", "", d.kind + " " + d.name); li.dataset.name = d.name; li.dataset.version = v.version; li.append(el("span", "loc", d.location)); list.append(li);
    }
    head.textContent = "Version " + v.version + (v.newest ? " (newest)" : "") + ": " + versionSeen + " of " + v.declared.length + " seen";
  }
}
function add(calls) {
  const list = $("calls");
  for (const c of calls) {
    if (c.id <= state.lastId) continue;
    state.lastId = c.id;
    const t = state.totals;
    if (c.status === "rejected") t.rejectedRequests++; else { t.calls++; if (c.status === "invalid") t.invalidCalls++; else t.validCalls++; if (c.status === "warning") t.callsWithWarnings++; }
    if (c.status !== "rejected") {
      const key = rowKey(c);
      const row = state.rows.get(key) || { type: c.type, name: c.name, version: c.version, declared: declaredIn(c), seen: 0, valid: 0, invalid: 0, lastSeen: 0 };
      row.seen++; if (c.status === "invalid") row.invalid++; else row.valid++; row.lastSeen = c.time; state.rows.set(key, row);
      markSeen(c);
    }
    const li = callItem(c); li.hidden = !matches(li); list.prepend(li);
  }
  while (list.children.length > 1000) list.lastElementChild.remove();
  renderTotals(); renderTable(); renderCoverage(); applyFilters();
}
const source = new EventSource("/events");
let pending = [];
source.addEventListener("calls", (e) => { const calls = JSON.parse(e.data); if (state.loaded) add(calls); else pending.push(...calls); });
source.onopen = () => { $("live").className = "on"; $("live").textContent = "live"; };
source.onerror = () => { $("live").className = "off"; $("live").textContent = "reconnecting"; };
fetch("/api/state").then((r) => r.json()).then((s) => {
  state.declared = s.declared; state.versions = s.versions || null;
  for (const r of s.table) { state.rows.set(rowKey(r), r); markSeen(r); }
  state.totals = s.totals; state.loaded = true;
  const list = $("calls");
  for (const c of s.calls) { const li = callItem(c); li.hidden = !matches(li); list.prepend(li); state.lastId = Math.max(state.lastId, c.id); }
  renderTotals(); renderTable(); renderCoverage(); applyFilters();
  add(pending); pending = [];
});
if (params.get("wait")) { const img = new Image(); img.src = "/api/wait?calls=" + encodeURIComponent(params.get("wait")) + (params.get("seconds") ? "&seconds=" + encodeURIComponent(params.get("seconds")) : ""); document.body.append(img); }
</script>
</body>
</html>
"""#
}
