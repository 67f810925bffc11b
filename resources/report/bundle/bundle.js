/* The bundle page: reads window.STUDIO_BUNDLE (data.js) and draws the report's tables (with
   95% intervals when the rows carry them, and the repair measures under them), a human baseline study's tables (report.studies),
   the statistics of the runs' tasks (task_set: a table, and bar charts drawn by the studio as SVG
   shown as images, so no markup from the data enters the page), the episodes with filters, each episode's step film strip with the action drawn over its
   screenshot (SVG, as the run viewer draws it), and two runs side by side. Plain script, no network: everything comes from files beside the page.
   Text from the data is always set as text, never parsed as HTML. */
(function () {
  "use strict";
  var DATA = window.STUDIO_BUNDLE;
  var CATEGORIES = ["create", "debug", "extend", "compute"];
  var SVG = "http://www.w3.org/2000/svg";
  var state = { task: "", category: "", agent: "", outcome: "" };

  function el(tag, attrs) {
    var node = document.createElement(tag);
    var a = attrs || {};
    Object.keys(a).forEach(function (k) {
      if (k === "text") node.textContent = a[k];
      else if (k === "cls") node.className = a[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), a[k]);
      else if (a[k] !== null && a[k] !== undefined) node.setAttribute(k, a[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }
  function sv(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }
  function pct(v) { return v === null || v === undefined ? "-" : (100 * v).toFixed(2); }
  function secs(s) {
    if (s === null || s === undefined) return "-";
    return s < 120 ? s.toFixed(1) + " s" : (s / 60).toFixed(1) + " min";
  }
  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }
  function interval(v) {
    return Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "number";
  }

  /* ---- the report's tables ---- */
  function cell(stats, which) {
    var value = stats ? stats[which] : null;
    var td = el("td", {}, pct(value));
    var ci = stats ? stats[which + "_ci95"] : null;
    if (interval(ci)) {
      td.appendChild(el("span", { cls: "ci" }, "[" + pct(ci[0]) + ", " + pct(ci[1]) + "]"));
      td.appendChild(whisker(value, ci));
    }
    if (stats && stats.tasks === 0) td.textContent = "-";
    return td;
  }
  function whisker(value, ci) {
    var w = 80, s = sv("svg", { width: w, height: 8, class: "whisker", "aria-hidden": "true" });
    s.appendChild(sv("line", { x1: 0, x2: w, y1: 4, y2: 4, stroke: "#d5d9e0" }));
    s.appendChild(sv("line", { x1: ci[0] * w, x2: ci[1] * w, y1: 4, y2: 4, stroke: "#2f6fb3", "stroke-width": 3 }));
    if (typeof value === "number") s.appendChild(sv("circle", { cx: value * w, cy: 4, r: 3, fill: "#1d2330" }));
    return s;
  }
  function passAtK(stats) {
    var p = stats && stats.pass_at_k;
    if (!p || typeof p !== "object") return null;
    var keys = Object.keys(p).sort(function (a, b) { return a - b; });
    return el("span", { cls: "ci" }, keys.map(function (k) { return "pass@" + k + " " + pct(p[k]); }).join(" · "));
  }
  function drawTables() {
    var report = DATA.report, box = document.getElementById("tables");
    var modes = [];
    report.rows.forEach(function (r) { if (modes.indexOf(r.mode) < 0) modes.push(r.mode); });
    modes.sort(function (a, b) { return (a !== "composite") - (b !== "composite") || (a < b ? -1 : 1); });
    modes.forEach(function (mode) {
      var rows = report.rows.filter(function (r) { return r.mode === mode; });
      var cols = report.categories.filter(function (c) {
        return CATEGORIES.indexOf(c) >= 0 || rows.some(function (r) { return r.categories[c] && r.categories[c].tasks; });
      });
      var head = el("tr", {}, el("th", {}, "Agent"));
      cols.forEach(function (c) { head.appendChild(el("th", {}, cap(c))); });
      ["SR", "PSR", "Episodes", "Time/task"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      var body = el("tbody");
      rows.forEach(function (r) {
        var tr = el("tr", {}, el("td", {}, r.agent));
        cols.forEach(function (c) { tr.appendChild(cell(r.categories[c], "sr")); });
        var sr = cell(r.overall, "sr");
        var extra = passAtK(r.overall);
        if (extra) sr.appendChild(extra);
        tr.appendChild(sr);
        tr.appendChild(cell(r.overall, "psr"));
        tr.appendChild(el("td", {}, String(r.overall.episodes || r.overall.runs || 0)));
        tr.appendChild(el("td", {}, secs(r.mean_seconds)));
        body.appendChild(tr);
      });
      box.appendChild(el("h2", {}, cap(mode) + " mode (success rate %)"));
      box.appendChild(el("table", { cls: "grid", "data-mode": mode }, el("thead", {}, head), body));
      var repair = repairList(rows);
      if (repair) { repair.setAttribute("data-mode", mode); box.appendChild(repair); }
    });
  }
  /* The repair measures of the rows with debug or understanding episodes measured: d_edit and
     semantic drift (means with their 95% intervals), trigger F1 and mechanism accuracy. */
  function repairList(rows) {
    function figure(o, name, key, digits) {
      var v = o[key + "_mean"] !== undefined ? o[key + "_mean"] : o[key];
      if (typeof v !== "number") return null;
      var ci = o[key + "_ci95"];
      var text = name + " " + v.toFixed(digits);
      if (interval(ci)) text += " [" + ci[0].toFixed(digits) + ", " + ci[1].toFixed(digits) + "]";
      return text;
    }
    var list = el("ul", { cls: "repair" });
    rows.forEach(function (r) {
      var o = r.overall || {};
      var parts = [
        figure(o, "d_edit", "d_edit", 2), figure(o, "drift", "drift", 3),
        figure(o, "trigger F1", "trigger_f1", 3),
        typeof o.mechanism_accuracy === "number" ? "mechanism accuracy " + o.mechanism_accuracy.toFixed(3) : null
      ].filter(function (p) { return p; });
      if (parts.length) list.appendChild(el("li", {}, r.agent + ": " + parts.join("; ")));
    });
    return list.children.length ? list : null;
  }
  function drawDiagnostics() {
    var rows = DATA.report.diagnostics || [], box = document.getElementById("diagnostics");
    var titles = { drag: "Single-step drag (%)", qa: "Perception QA (accuracy %)" };
    ["drag", "qa"].forEach(function (kind) {
      var mine = rows.filter(function (r) { return r.kind === kind; });
      if (!mine.length) return;
      var keys = [];
      mine.forEach(function (r) { Object.keys(r.scores).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
      var head = el("tr", {}, el("th", {}, "Agent"), el("th", {}, "Items"));
      keys.forEach(function (k) { head.appendChild(el("th", {}, k)); });
      var body = el("tbody");
      mine.forEach(function (r) {
        var tr = el("tr", {}, el("td", {}, r.agent), el("td", {}, String(r.items)));
        keys.forEach(function (k) {
          var v = r.scores[k];
          tr.appendChild(el("td", {}, v === null || v === undefined ? "-" : v.toFixed(2)));
        });
        body.appendChild(tr);
      });
      box.appendChild(el("h2", {}, titles[kind]));
      box.appendChild(el("table", {}, el("thead", {}, head), body));
    });
  }

  /* ---- a human baseline study's tables (report.studies, studio study) ---- */
  function drawStudies() {
    var box = document.getElementById("studies");
    (DATA.report.studies || []).forEach(function (study) {
      box.appendChild(el("h2", {}, "Human baseline study " + study.study));
      [["categories", "Per category (human)"], ["participants", "Per participant"],
       ["tasks", "Per task (SR = share of participants who solved it)"]].forEach(function (t) {
        var head = el("tr", {});
        ["", "Ended", "SR %", "PSR %", "Time/task", "Actions/task"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
        var body = el("tbody");
        (study[t[0]] || []).forEach(function (f) {
          var acts = typeof f.mean_actions === "number" ? f.mean_actions.toFixed(1) : "-";
          body.appendChild(el("tr", {}, el("td", {}, f.name), el("td", {}, String(f.ended)),
            cell(f, "sr"), cell(f, "psr"), el("td", {}, secs(f.mean_seconds)), el("td", {}, acts)));
        });
        box.appendChild(el("h3", {}, t[1]));
        box.appendChild(el("table", { cls: "study", "data-table": t[0] }, el("thead", {}, head), body));
      });
    });
  }

  /* ---- the statistics of the runs' tasks (task_set, studio stats' figures) ---- */
  function drawTaskSet() {
    var set = DATA.task_set, box = document.getElementById("task-set");
    if (!set) return;
    box.appendChild(el("h2", {}, "Task set: " + set.tasks + " task(s) the runs played"));
    var head = el("tr", {});
    set.table.head.forEach(function (h) { head.appendChild(el("th", {}, h)); });
    var body = el("tbody");
    set.table.rows.forEach(function (row) {
      var tr = el("tr", {});
      row.forEach(function (c) { tr.appendChild(el("td", {}, c)); });
      body.appendChild(tr);
    });
    box.appendChild(el("table", { cls: "task-set" }, el("thead", {}, head), body));
    var charts = el("div", { cls: "charts" });
    set.charts.forEach(function (c) {
      charts.appendChild(el("img", { cls: "chart", "data-chart": c.id, alt: c.title,
        src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(c.svg) }));
    });
    box.appendChild(charts);
    if (set.missing.length) {
      box.appendChild(el("p", { cls: "meta" }, "Not in these figures (no readable task folder recorded): " +
        set.missing.join(", ")));
    }
    box.hidden = false;
  }

  /* ---- the action drawn on a screenshot ---- */
  function label(svg, x, y, text) {
    var g = sv("g", { class: "label" });
    var t = sv("text", { x: x + 10, y: y + 38 });
    t.textContent = text.length > 48 ? text.slice(0, 47) + "…" : text;
    var r = sv("rect", { x: x, y: y, rx: 8, width: 20 + 21 * Math.min(text.length, 48), height: 52 });
    g.appendChild(r); g.appendChild(t); svg.appendChild(g);
  }
  function arrowHead(svg, x0, y0, x1, y1, cls, size) {
    var a = Math.atan2(y1 - y0, x1 - x0), d = "M" + x1 + " " + y1;
    [-1, 1].forEach(function (side) {
      d += " L" + (x1 - size * Math.cos(a + side * 0.45)) + " " + (y1 - size * Math.sin(a + side * 0.45)) + " M" + x1 + " " + y1;
    });
    svg.appendChild(sv("path", { d: d, class: cls, "stroke-width": 6, "stroke-linecap": "round" }));
  }
  function overlay(step) {
    var w = step.w || 1280, h = step.h || 720, m = step.mark || { kind: "caption", points: [] };
    var svg = sv("svg", { viewBox: "0 0 " + w + " " + h, preserveAspectRatio: "none", class: "mark", "data-kind": m.kind });
    var p = m.points || [];
    if (m.box) svg.appendChild(sv("rect", { x: m.box[0], y: m.box[1], width: m.box[2], height: m.box[3], class: "box", "stroke-width": 3 }));
    if ((m.kind === "click" || m.kind === "double_click") && p.length) {
      var x = p[0][0], y = p[0][1];
      svg.appendChild(sv("circle", { cx: x, cy: y, r: 22, class: "click", "stroke-width": 5 }));
      if (m.kind === "double_click") svg.appendChild(sv("circle", { cx: x, cy: y, r: 32, class: "click", fill: "none", "stroke-width": 4 }));
      svg.appendChild(sv("path", { class: "click", "stroke-width": 4, d: "M" + (x - 40) + " " + y + " h26 M" + (x + 14) + " " + y + " h26 M" + x + " " + (y - 40) + " v26 M" + x + " " + (y + 14) + " v26" }));
      label(svg, x + 36, y - 52, (m.button && m.button !== "left" ? m.button + " " : "") + (m.kind === "double_click" ? "double-click" : "click"));
    } else if (m.kind === "drag" && p.length > 1) {
      svg.appendChild(sv("line", { x1: p[0][0], y1: p[0][1], x2: p[1][0], y2: p[1][1], class: "drag", "stroke-width": 6, "stroke-linecap": "round" }));
      arrowHead(svg, p[0][0], p[0][1], p[1][0], p[1][1], "drag", 28);
      svg.appendChild(sv("circle", { cx: p[0][0], cy: p[0][1], r: 16, class: "drag", "stroke-width": 5 }));
      svg.appendChild(sv("circle", { cx: p[1][0], cy: p[1][1], r: 9, class: "drag", style: "fill:#ff8c00" }));
      label(svg, p[0][0] + 20, p[0][1] + 16, "press");
      label(svg, p[1][0] + 20, p[1][1] - 50, "release");
    } else if (m.kind === "scroll" && p.length) {
      var d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[m.direction] || [0, 1];
      var sx = p[0][0], sy = p[0][1], tx = sx + d[0] * 90, ty = sy + d[1] * 90;
      svg.appendChild(sv("circle", { cx: sx, cy: sy, r: 16, class: "scroll", "stroke-width": 5 }));
      svg.appendChild(sv("line", { x1: sx + d[0] * 18, y1: sy + d[1] * 18, x2: tx, y2: ty, class: "scroll", "stroke-width": 6 }));
      arrowHead(svg, sx, sy, tx, ty, "scroll", 24);
      label(svg, sx + 26, sy - 52, m.text || "scroll " + m.direction);
    } else {
      label(svg, 16, 16, m.text || step.action || m.kind);
    }
    if (step.ok === false) svg.appendChild(sv("rect", { x: 4, y: 4, width: w - 8, height: h - 8, class: "failed", "stroke-width": 10 }));
    return svg;
  }
  function shot(step) {
    var box = el("div", { cls: "shot" });
    if (step.img) box.appendChild(el("img", { src: step.img, alt: "step " + step.index, loading: "lazy", decoding: "async" }));
    else box.appendChild(el("div", { cls: "none" }, "no screenshot"));
    box.appendChild(overlay(step));
    return box;
  }
  function openLightbox(step) {
    var lb = document.getElementById("lightbox");
    lb.textContent = "";
    lb.appendChild(shot(step));
    lb.appendChild(el("p", {}, "#" + step.index + " " + step.action + (step.error ? " — " + step.error : "")));
    if (step.reasoning) lb.appendChild(el("p", {}, step.reasoning));
    lb.hidden = false;
  }

  /* ---- an episode: tests, problems, film strip ---- */
  function frame(step) {
    var f = el("div", { cls: "frame", "data-step": step.index });
    var s = shot(step);
    s.addEventListener("click", function () { openLightbox(step); });
    f.appendChild(s);
    var c = el("div", { cls: "cap" }, el("b", {}, "#" + step.index + " "), step.action);
    if (step.error) c.appendChild(el("div", { cls: "err" }, step.error));
    var notes = (step.flags || []).concat((step.missing || []).map(function (m) { return "missing " + m; }));
    if (notes.length) c.appendChild(el("div", { cls: "flags" }, notes.join(", ")));
    f.appendChild(c);
    return f;
  }
  function episodeDetail(ep) {
    var box = el("div", { cls: "episode-detail", "data-episode": ep.id });
    box.appendChild(el("div", { cls: "meta" }, ep.agent + " · " + ep.mode + " · " + ep.task + " · " + ep.folder));
    if (ep.error) box.appendChild(el("div", { cls: "problems" }, ep.error));
    if (ep.tests.length) {
      var t = el("div", { cls: "tests" });
      ep.tests.forEach(function (x) {
        t.appendChild(el("span", { cls: x.passed ? "ok" : "ko" }, (x.passed ? "✓ " : "✗ ") + x.name + "   "));
      });
      box.appendChild(t);
    }
    if (ep.problems.length) {
      var ul = el("ul", { cls: "problems" });
      ep.problems.forEach(function (p) { ul.appendChild(el("li", {}, p)); });
      box.appendChild(ul);
    }
    var strip = el("div", { cls: "strip" });
    ep.steps.forEach(function (s) { strip.appendChild(frame(s)); });
    if (ep.final) strip.appendChild(frame({ index: "end", action: "final screen", img: ep.final, w: 1280, h: 720, mark: { kind: "none", points: [] }, ok: true }));
    if (!ep.steps.length) strip.appendChild(el("div", { cls: "meta" }, "no steps recorded"));
    box.appendChild(strip);
    if (ep.program && ep.program.length) box.appendChild(programView(ep.program));
    return box;
  }
  /* the final program: a picture per script, its text a click away */
  function programView(program) {
    var wrap = el("div", { cls: "program" });
    wrap.appendChild(el("h3", {}, "Final program"));
    program.forEach(function (target) {
      if (!target.scripts.length) return;
      var row = el("div", { cls: "target" });
      row.appendChild(el("div", { cls: "meta" }, target.target));
      target.scripts.forEach(function (s) {
        var item = el("div", { cls: "script" });
        if (s.img) item.appendChild(el("img", { src: s.img, width: Math.round(s.w), height: Math.round(s.h), alt: s.text }));
        var more = el("details", s.img ? {} : { open: "" });
        more.appendChild(el("summary", {}, "text"));
        more.appendChild(el("pre", {}, s.text));
        item.appendChild(more);
        row.appendChild(item);
      });
      wrap.appendChild(row);
    });
    return wrap;
  }
  function badge(outcome) {
    var text = { pass: "passed", fail: "failed", error: "no verdict" }[outcome] || "—";
    return el("span", { cls: "badge " + (outcome || "none") }, text);
  }

  /* ---- the episodes list and its filters ---- */
  function matches(ep) {
    return (!state.task || ep.task.toLowerCase().indexOf(state.task.toLowerCase()) >= 0) &&
      (!state.category || ep.category === state.category) &&
      (!state.agent || ep.agent === state.agent) &&
      (!state.outcome || ep.outcome === state.outcome);
  }
  function drawEpisodes() {
    var body = document.querySelector("#episodes tbody");
    body.textContent = "";
    var shown = 0;
    DATA.episodes.forEach(function (ep) {
      if (!matches(ep)) return;
      shown++;
      var tr = el("tr", { cls: "episode", "data-episode": ep.id, "data-outcome": ep.outcome },
        el("td", {}, ep.task), el("td", {}, ep.epoch ? String(ep.epoch) : "-"), el("td", {}, ep.category), el("td", {}, ep.agent), el("td", {}, ep.mode),
        el("td", {}, badge(ep.outcome)), el("td", {}, ep.total ? ep.passed + "/" + ep.total : "-"),
        el("td", {}, String(ep.steps.length)), el("td", {}, secs(ep.seconds)),
        el("td", {}, DATA.runs[ep.run] ? DATA.runs[ep.run].label : ""));
      tr.addEventListener("click", function () { toggle(tr, ep); });
      body.appendChild(tr);
    });
    document.getElementById("count").textContent = shown + " of " + DATA.episodes.length + " episodes";
  }
  function toggle(tr, ep) {
    var next = tr.nextSibling;
    if (next && next.classList && next.classList.contains("detail-row")) {
      next.remove(); tr.classList.remove("open"); return;
    }
    tr.classList.add("open");
    var td = el("td", { cls: "detail", colspan: 10 }, episodeDetail(ep));
    tr.parentNode.insertBefore(el("tr", { cls: "detail-row" }, td), tr.nextSibling);
  }
  function options(id, values) {
    var select = document.getElementById(id);
    values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
  }
  function distinct(key) {
    var seen = {};
    DATA.episodes.forEach(function (e) { seen[e[key]] = true; });
    return Object.keys(seen).sort();
  }
  function wireFilters() {
    options("f-category", distinct("category"));
    options("f-agent", distinct("agent"));
    var list = document.getElementById("task-names");
    distinct("task").forEach(function (t) { list.appendChild(el("option", { value: t })); });
    [["f-task", "task", "input"], ["f-category", "category", "change"], ["f-agent", "agent", "change"], ["f-outcome", "outcome", "change"]].forEach(function (f) {
      var input = document.getElementById(f[0]);
      input.addEventListener(f[2], function () { state[f[1]] = input.value; drawEpisodes(); });
    });
  }

  /* ---- two runs side by side ---- */
  function summary(eps) {
    if (!eps || !eps.length) return el("td", {}, "—");
    var passed = eps.filter(function (e) { return e.outcome === "pass"; }).length;
    var td = el("td", {}, eps.length === 1 ? badge(eps[0].outcome) : el("span", {}, passed + "/" + eps.length + " passed"));
    td.setAttribute("data-passed", passed);
    return td;
  }
  function drawCompare() {
    var a = +document.getElementById("cmp-a").value, b = +document.getElementById("cmp-b").value;
    var byTask = {};
    DATA.episodes.forEach(function (e) {
      if (e.run !== a && e.run !== b) return;
      var t = byTask[e.task] = byTask[e.task] || { a: [], b: [] };
      if (e.run === a) t.a.push(e);
      if (e.run === b) t.b.push(e);
    });
    var table = document.getElementById("compare");
    table.tHead.textContent = "";
    table.tHead.appendChild(el("tr", {}, el("th", {}, "Task"), el("th", {}, "A: " + (DATA.runs[a] || {}).label), el("th", {}, "B: " + (DATA.runs[b] || {}).label)));
    var body = table.tBodies[0];
    body.textContent = "";
    Object.keys(byTask).sort().forEach(function (task) {
      var t = byTask[task];
      var tr = el("tr", { cls: "episode", "data-task": task }, el("td", {}, task), summary(t.a), summary(t.b));
      tr.addEventListener("click", function () { showPair(task, t); });
      body.appendChild(tr);
    });
    document.getElementById("compare-strips").textContent = "";
  }
  function showPair(task, t) {
    var box = document.getElementById("compare-strips");
    box.textContent = "";
    [t.a[0], t.b[0]].forEach(function (ep, i) {
      var side = el("div", {}, el("h3", {}, (i ? "B: " : "A: ") + task));
      side.appendChild(ep ? episodeDetail(ep) : el("p", { cls: "meta" }, "this run has no episode of the task"));
      box.appendChild(side);
    });
  }
  function wireCompare() {
    ["cmp-a", "cmp-b"].forEach(function (id, i) {
      var select = document.getElementById(id);
      DATA.runs.forEach(function (r) { select.appendChild(el("option", { value: r.id }, r.label + " (" + r.episodes + ")")); });
      select.value = String(Math.min(i, Math.max(0, DATA.runs.length - 1)));
      select.addEventListener("change", drawCompare);
    });
    drawCompare();
  }

  function drawProblems() {
    var problems = (DATA.report.problems || []).slice();
    if (!problems.length) return;
    var ul = document.getElementById("problems");
    problems.forEach(function (p) { ul.appendChild(el("li", {}, p)); });
    document.getElementById("problems-section").hidden = false;
  }

  function start() {
    if (!DATA || DATA.format !== "scratch-bench-bundle") {
      document.getElementById("meta").textContent = "data.js is missing or is not a studio bundle.";
      return;
    }
    document.getElementById("meta").textContent = DATA.episodes.length + " episodes in " + DATA.runs.length +
      " run(s) below " + DATA.root + "; generated " + DATA.generated;
    drawTables();
    drawDiagnostics();
    drawStudies();
    drawTaskSet();
    wireFilters();
    drawEpisodes();
    wireCompare();
    drawProblems();
    var lb = document.getElementById("lightbox");
    lb.addEventListener("click", function () { lb.hidden = true; });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") lb.hidden = true; });
    document.body.setAttribute("data-episodes", DATA.episodes.length);
    document.body.setAttribute("data-ready", "1");
  }
  start();
})();
