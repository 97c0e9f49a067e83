
"use strict";
(() => {
  // Filters, search and anchors of the report. Everything it reads comes from data-*
  // attributes and form fields; it only toggles classes, `open` and `hidden`.
  const doc = document;
  const bar = doc.getElementById("cd_bar");
  const box = doc.getElementById("cd_filterbox");
  const form = doc.getElementById("cd_filters");
  const shown = doc.getElementById("cd_shown");
  const empty = doc.getElementById("cd_empty");
  const commits = [...doc.querySelectorAll("details.commit")];
  const all = (selector) => doc.querySelectorAll(selector);

  function apply() {
    const levels = new Set([...form.elements.importance].filter((b) => b.checked).map((b) => b.value));
    const type = form.elements.type.value;
    const repo = form.elements.repo.value;
    const words = form.elements.q.value.toLowerCase().split(/\s+/).filter(Boolean);
    const hidden = new Set();
    for (const c of commits) {
      const d = c.dataset;
      const ok = levels.has(d.importance) && (!type || d.type === type) &&
        (!repo || d.repo === repo) && words.every((w) => d.search.includes(w));
      c.classList.toggle("is-filtered", !ok);
      if (!ok) hidden.add(c.id);
    }
    for (const el of all("[data-ref]")) el.classList.toggle("is-filtered", hidden.has(el.dataset.ref));
    for (const el of all("[data-repo-section]")) {
      el.classList.toggle("is-filtered", Boolean(repo) && el.dataset.repoSection !== repo);
    }
    for (const el of all("[data-group]")) {
      el.classList.toggle("is-filtered", !el.querySelector(
        "details.commit:not(.is-filtered), [data-ref]:not(.is-filtered)"));
    }
    const count = commits.length - hidden.size;
    shown.textContent = shown.dataset.template
      .replace("{shown}", String(count)).replace("{total}", String(commits.length));
    empty.hidden = count > 0 || commits.length === 0;
  }

  function measure() {
    doc.documentElement.style.setProperty("--bar-h", `${bar.offsetHeight}px`);
  }

  // page.html#abc1234 opens that commit's section and scrolls to it (on load, on change).
  function reveal() {
    let id = "";
    try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
    const target = id ? doc.getElementById(id) : null;
    if (!target || target === bar) return;
    if (target.closest(".is-filtered")) { form.reset(); apply(); }
    for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    measure();
    target.scrollIntoView({ block: "start" });
  }

  function setAll(open) { for (const c of commits) c.open = open; }

  box.hidden = false;
  if (window.matchMedia("(max-width: 40rem)").matches) box.open = false;
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("reset", () => setTimeout(apply, 0));
  doc.getElementById("cd_expand").addEventListener("click", () => setAll(true));
  doc.getElementById("cd_collapse").addEventListener("click", () => setAll(false));
  box.addEventListener("toggle", measure);
  window.addEventListener("resize", measure);
  window.addEventListener("hashchange", reveal);
  doc.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest('a[href^="#"]') : null;
    if (link && link.getAttribute("href") === location.hash) reveal();
  });
  // printing shows every section: open them all, and restore afterwards
  let before = [];
  window.addEventListener("beforeprint", () => {
    before = [...all("details")].map((d) => [d, d.open]);
    for (const [d] of before) d.open = true;
  });
  window.addEventListener("afterprint", () => { for (const [d, open] of before) d.open = open; });
  apply();
  measure();
  if (location.hash) { reveal(); window.addEventListener("load", reveal, { once: true }); }
})();
