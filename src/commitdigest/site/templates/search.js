// search.html: every commit of the archive. Over http(s) the Pagefind index (pagefind/)
// answers; from file:// (where the browser refuses the index's fetches) the records of
// search-data.js do. Commit text is only ever set as textContent: it stays text.
"use strict";
(function () {
  const form = document.getElementById("cd_search");
  const list = document.getElementById("cd_results");
  const status = document.getElementById("cd_status");
  const fields = ["q", "repo", "importance", "kind"].map((n) => form.elements[n]);
  const [query, repo, importance, kind] = fields;
  const records = Array.isArray(window.CD_SEARCH) ? window.CD_SEARCH : [];
  const labels = {};
  for (const o of importance.options) if (o.value) labels[o.value] = o.textContent;
  for (const name of [...new Set(records.map((r) => r.r))].sort()) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    repo.append(option);
  }
  const params = new URLSearchParams(location.search);
  for (const f of fields) f.value = params.get(f.name) || "";

  let pagefind;  // undefined: not tried yet; null: not available
  async function engine() {
    if (pagefind !== undefined) return pagefind;
    pagefind = null;
    if (location.protocol === "http:" || location.protocol === "https:") {
      try {
        const module = await import(new URL("pagefind/pagefind.js", location.href).href);
        await module.options({ baseUrl: new URL(".", location.href).pathname });
        await module.init();
        pagefind = module;
      } catch (error) {
        pagefind = null;
      }
    }
    return pagefind;
  }

  function haystack(r) {
    if (!r._h) r._h = [r.t, r.a, r.s, ...(r.p || []), ...(r.x || [])].join("\n").toLowerCase();
    return r._h;
  }

  async function find(text, filters) {
    const pf = await engine();
    if (pf) {
      const found = await pf.search(text, { filters });
      const data = await Promise.all(found.results.slice(0, 50).map((x) => x.data()));
      const hits = data.map((d) => ({
        u: d.meta.target, t: d.meta.title, d: d.meta.date, r: d.meta.repo, i: d.meta.importance,
        e: (d.excerpt || "").replace(/<[^>]*>/g, ""),
      }));
      return [hits, found.results.length];
    }
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const all = records.filter((r) =>
      (!filters.repo || r.r === filters.repo) &&
      (!filters.importance || r.i === filters.importance) &&
      (!filters.kind || r.k === filters.kind) &&
      words.every((w) => haystack(r).includes(w)));
    return [all.slice(0, 50).map((r) => ({ u: r.u, t: r.t, d: r.d, r: r.r, i: r.i, e: r.s })),
      all.length];
  }

  function show(hits, total) {
    list.replaceChildren();
    for (const hit of hits) {
      const item = document.createElement("li");
      item.className = "hit imp-" + hit.i;
      const link = document.createElement("a");
      link.href = new URL(hit.u, location.href).href;
      link.textContent = hit.t;
      const meta = document.createElement("span");
      meta.className = "muted";
      meta.textContent = " · " + hit.d + " · " + hit.r + " · " + (labels[hit.i] || hit.i);
      const excerpt = document.createElement("p");
      excerpt.textContent = hit.e;
      item.append(link, meta, excerpt);
      list.append(item);
    }
    status.textContent = total
      ? status.dataset.count.replace("{n}", String(total))
      : status.dataset.none;
  }

  async function run() {
    const text = query.value.trim();
    if (!text) {
      list.replaceChildren();
      status.textContent = status.dataset.empty;
      return;
    }
    const filters = {};
    if (repo.value) filters.repo = repo.value;
    if (importance.value) filters.importance = importance.value;
    if (kind.value) filters.kind = kind.value;
    const [hits, total] = await find(text, filters);
    show(hits, total);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const f of fields) if (f.value) next.set(f.name, f.value);
    history.replaceState(null, "", "?" + next.toString());
    run();
  });
  for (const f of [repo, importance, kind]) f.addEventListener("change", run);
  run();
})();
