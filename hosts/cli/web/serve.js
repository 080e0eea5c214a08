// featurelab serve's page: polls /api every second and redraws what changed. No library but Chart.js.
"use strict";

const state = { runs: [], shown: new Set([0]), metric: null, zoom: null, finalsSort: null, chart: null, drag: null };

function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v; else if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.appendChild(c);
  return e;
}

async function api(path) {
  const response = await fetch(path, { cache: "no-store" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.style.display = message ? "block" : "none";
}

// 4 significant digits, the exact value in the title.
function num(v) {
  if (v === null || v === undefined) return el("td", { text: "–" });
  if (typeof v !== "number") return el("td", { class: "left", text: String(v) });
  return el("td", { title: String(v), text: Number(v.toPrecision(4)).toString() });
}

function table(headers, rows, onSort) {
  const head = el("tr", {}, headers.map((h, i) => {
    const th = el("th", { class: i === 0 ? "left" : "", text: h });
    if (onSort) { th.className += " sortable"; th.onclick = () => onSort(i); }
    return th;
  }));
  return el("table", {}, [head, ...rows]);
}

function colour(i) { return `hsl(${(i * 137.5) % 360}, 65%, 42%)`; }

function renderRuns() {
  const list = document.getElementById("run-list");
  list.replaceChildren(...state.runs.map((run, r) => {
    const box = el("input", { type: "checkbox", id: `run-${r}` });
    box.checked = state.shown.has(r);
    box.onchange = () => { if (box.checked) state.shown.add(r); else state.shown.delete(r); refresh(); };
    const states = Object.entries(run.states).map(([s, n]) => `${n} ${s}`).join(", ");
    return el("div", {}, [box, el("label", { for: `run-${r}`, text: ` ${run.name} (${run.dir}): ${run.jobs} jobs, ${states}` +
      (run.problem ? ` — ${run.problem}` : "") })]);
  }));
  const metrics = [...new Set(state.runs.flatMap(run => run.metrics))].sort();
  const select = document.getElementById("metric");
  if (select.options.length !== metrics.length) {
    const chosen = state.metric;
    select.replaceChildren(...metrics.map(m => el("option", { value: m, text: m })));
    state.metric = metrics.includes(chosen) ? chosen : metrics.find(m => /accuracy\.test|\.test$/.test(m)) || metrics[0] || null;
    if (state.metric) select.value = state.metric;
  }
}

async function renderChart() {
  if (!state.metric) return;
  const datasets = [];
  let i = 0;
  for (const r of [...state.shown].sort()) {
    const series = await api(`/api/runs/${r}/series?metric=${encodeURIComponent(state.metric)}`);
    for (const s of series) {
      const c = colour(i++);
      const name = (state.shown.size > 1 ? `${state.runs[r].name}: ` : "") + (s.label || state.metric);
      const points = key => s.step.map((x, k) => ({ x, y: s[key][k] }));
      datasets.push({ label: name, data: points("mean"), borderColor: c, backgroundColor: c, pointRadius: 0, borderWidth: 2 });
      datasets.push({ label: `${name} − std`, data: points("low"), borderColor: "transparent", pointRadius: 0, fill: false, band: true });
      datasets.push({ label: `${name} + std`, data: points("high"), borderColor: "transparent", backgroundColor: c.replace("hsl", "hsla").replace(")", ", 0.15)"),
                      pointRadius: 0, fill: "-1", band: true });
    }
  }
  const logy = document.getElementById("logy").checked, logx = document.getElementById("logx").checked;
  const scales = {
    x: { type: logx ? "logarithmic" : "linear", title: { display: true, text: "step" },
         min: state.zoom ? state.zoom[0] : undefined, max: state.zoom ? state.zoom[1] : undefined },
    y: { type: logy ? "logarithmic" : "linear", title: { display: true, text: state.metric } },
  };
  if (!state.chart) {
    state.chart = new Chart(document.getElementById("chart"), {
      type: "line", data: { datasets },
      options: { animation: false, maintainAspectRatio: false, parsing: true, interaction: { mode: "nearest", intersect: false },
                 scales, plugins: { legend: { labels: { filter: item => !item.text.endsWith(" std") } },
                                    title: { display: true, text: `${state.metric} (mean ± std over seeds)` } } },
    });
    installZoom(state.chart);
  } else {
    state.chart.data.datasets = datasets;
    state.chart.options.scales = scales;
    state.chart.options.plugins.title.text = `${state.metric} (mean ± std over seeds)`;
    state.chart.update("none");
  }
  document.getElementById("chart").dataset.points = String(datasets.reduce((n, d) => n + d.data.length, 0));
}

// Drag across the chart: its x range becomes the zoom.
function installZoom(chart) {
  const canvas = chart.canvas;
  canvas.addEventListener("mousedown", e => { state.drag = chart.scales.x.getValueForPixel(e.offsetX); });
  canvas.addEventListener("mouseup", e => {
    if (state.drag === null) return;
    const end = chart.scales.x.getValueForPixel(e.offsetX);
    if (Math.abs(end - state.drag) > 0) state.zoom = [Math.min(state.drag, end), Math.max(state.drag, end)];
    state.drag = null;
    renderChart();
  });
}

async function renderJobs() {
  const rows = [];
  for (const r of [...state.shown].sort()) {
    for (const job of await api(`/api/runs/${r}/jobs`)) {
      const cls = job.state === "failed" ? "failed" : job.state === "running" ? "running" : "";
      const progress = job.step < 0 ? "–" : job.steps > 0 ? `${job.step} / ${job.steps}` : String(job.step);
      rows.push(el("tr", { class: cls, "data-state": job.state }, [
        el("td", { class: "left", text: state.runs[r].name }), el("td", { text: job.index }), el("td", { text: job.seed }),
        el("td", { class: "left", text: job.label }), el("td", { class: "left", text: job.state }), el("td", { text: progress }),
        el("td", { class: "left reason", text: job.reason }), el("td", { class: "left lineage", text: job.init_from }),
      ]));
    }
  }
  document.getElementById("jobs").replaceChildren(table(["run", "#", "seed", "sweep point", "state", "step", "reason", "weights from"], rows));
}

async function renderFinals() {
  const parts = [];
  for (const r of [...state.shown].sort()) {
    const points = await api(`/api/runs/${r}/finals`);
    const metrics = [...new Set(points.flatMap(p => Object.keys(p.metrics)))].sort();
    if (state.finalsSort !== null) {
      const key = state.finalsSort === 0 ? null : metrics[state.finalsSort - 1];
      points.sort((a, b) => key === null ? a.label.localeCompare(b.label) : (b.metrics[key] ?? -Infinity) - (a.metrics[key] ?? -Infinity));
    }
    const rows = points.map(p => el("tr", {}, [el("td", { class: "left", text: p.label || "(one point)" }), ...metrics.map(m => num(p.metrics[m]))]));
    parts.push(el("h3", { text: state.runs[r].name }), table(["sweep point", ...metrics], rows, i => { state.finalsSort = i; renderFinals(); }));
  }
  document.getElementById("finals").replaceChildren(...parts);
}

async function renderAssertions() {
  const parts = [];
  for (const r of [...state.shown].sort()) {
    const { asserts, note } = await api(`/api/runs/${r}/assertions`);
    const rows = asserts.map(a => {
      const failing = (a.checks || []).filter(c => !c.holds).slice(0, 3).map(c => `${c.point} seed ${c.seed ?? ""}: ${c.lhs} vs ${c.rhs}`);
      const controls = (a.controls || []).map(c => `${c.control} (${c.fails_there ? "fails there" : "HOLDS there"})`).join("; ");
      return el("tr", {}, [el("td", { class: a.holds ? "pass" : "fail", text: a.holds ? "PASS" : "FAIL" }),
        el("td", { class: "left", text: a.expect }), el("td", { class: "left", text: a.where || "" }),
        el("td", { class: "left", text: controls }), el("td", { class: "left", text: failing.join("; ") })]);
    });
    parts.push(el("h3", { text: state.runs[r].name }),
               note ? el("p", { text: note }) : table(["verdict", "expect", "where", "controls", "failing checks"], rows));
  }
  document.getElementById("assertions").replaceChildren(...parts);
}

async function renderDiff() {
  const shown = [...state.shown].sort();
  const section = document.getElementById("diff-section");
  section.style.display = shown.length >= 2 ? "block" : "none";
  if (shown.length < 2) return;
  const d = await api(`/api/diff?a=${shown[0]}&b=${shown[1]}`);
  const rows = d.differences.map(x => el("tr", {}, [el("td", { class: "left", text: x.key }), el("td", { class: "left", text: x.left ?? "(absent)" }),
                                                  el("td", { class: "left", text: x.right ?? "(absent)" })]));
  document.getElementById("diff").replaceChildren(el("p", { text: `${d.left} → ${d.right}: ${d.differences.length} of ${d.keys} keys differ` }),
                                                  table(["key", "left", "right"], rows));
}

async function renderProvenance() {
  const parts = [];
  for (const r of [...state.shown].sort()) {
    const p = await api(`/api/runs/${r}/provenance`);
    parts.push(el("details", {}, [el("summary", { text: `${state.runs[r].name}: overrides ${JSON.stringify(p.overrides)}` }),
                                  el("pre", { text: JSON.stringify({ provenance: p.provenance, manifest: p.manifest }, null, 2) })]));
  }
  document.getElementById("provenance").replaceChildren(...parts);
}

let tick = 0;
async function refresh() {
  try {
    state.runs = await api("/api/runs");
    renderRuns();
    await renderChart();
    await renderJobs();
    if (tick % 3 === 0) { await renderFinals(); await renderAssertions(); await renderDiff(); }
    if (tick % 10 === 0) await renderProvenance();
    showError("");
  } catch (e) {
    showError(`featurelab serve: ${e.message}`);
  }
  tick++;
}

document.getElementById("metric").onchange = e => { state.metric = e.target.value; state.zoom = null; refresh(); };
document.getElementById("logy").onchange = () => renderChart();
document.getElementById("logx").onchange = () => renderChart();
document.getElementById("reset-zoom").onclick = () => { state.zoom = null; renderChart(); };
refresh();
setInterval(refresh, 1000);
