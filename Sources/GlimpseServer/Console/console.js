// Glimpse console: the daemon's own API (docs/api.md), from the page's origin, with no library.
// Every text that comes from the daemon is set as text (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);

/** Makes an element: el("p", {class: "x", style: {width: "5%"}, onclick: f}, "text", child…). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (name === "style") Object.assign(node.style, value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// MARK: - The API

const token = {
  get: () => sessionStorage.getItem("glimpse-admin-token") || "",
  set: (value) => value ? sessionStorage.setItem("glimpse-admin-token", value) : sessionStorage.removeItem("glimpse-admin-token"),
};

/** An answer of the daemon that is not 2xx, with its JSON error's code and message. */
class APIError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

/** Calls the daemon; resolves with the Response, or rejects with an APIError saying why. */
async function call(path, options = {}) {
  const headers = new Headers(options.headers || {});
  const method = (options.method || "GET").toUpperCase();
  if (method !== "GET" && token.get()) headers.set("Authorization", "Bearer " + token.get());
  let response;
  try {
    response = await fetch(path, {...options, headers});
  } catch (error) {
    throw new APIError(0, "unreachable", "the daemon cannot be reached: " + error.message);
  }
  if (response.ok) return response;
  let code = "http_" + response.status, message = response.statusText;
  try {
    const body = await response.json();
    if (body && body.error) { code = body.error.code; message = body.error.message; }
  } catch (_) { /* not JSON */ }
  throw new APIError(response.status, code, message);
}
const getJSON = async (path, options) => (await call(path, options)).json();

function showError(container, error) {
  container.replaceChildren(el("p", {class: "error", role: "alert"}, `${error.status ? error.status + " " : ""}${error.code || ""}: ${error.message}`));
}

function announce(text) { $("status-line").textContent = text; }

// MARK: - Tabs

const tabs = ["search", "catalog", "health"];
function selectTab(name, focus = false) {
  for (const other of tabs) {
    const tab = $("tab-" + other), selected = other === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(other).hidden = !selected;
    if (selected && focus) tab.focus();
  }
  if (name === "health") refreshHealth();
}
for (const name of tabs) {
  const tab = $("tab-" + name);
  tab.addEventListener("click", () => selectTab(name));
  tab.addEventListener("keydown", (event) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step) selectTab(tabs[(tabs.indexOf(name) + step + tabs.length) % tabs.length], true);
  });
}

// MARK: - Search by picture

const search = {file: null, box: null, next: null, previewURL: null, generation: 0};

function chooseFile(file) {
  if (!file) return;
  if (!/^image\/(jpeg|png)$/.test(file.type) && !/\.(jpe?g|png)$/i.test(file.name || "")) {
    showError($("results"), new APIError(0, "not_a_photo", `${file.name || "this file"} is not a JPEG or PNG photo`));
    return;
  }
  search.file = file;
  search.box = null;
  if (search.previewURL) URL.revokeObjectURL(search.previewURL);
  search.previewURL = URL.createObjectURL(file);
  $("preview-image").src = search.previewURL;
  $("preview").hidden = false;
  drawBox();
  runSearch();
}

$("photo-input").addEventListener("change", (event) => chooseFile(event.target.files[0]));
const dropZone = $("drop-zone");
dropZone.addEventListener("dragover", (event) => { event.preventDefault(); dropZone.classList.add("dragging"); });
dropZone.addEventListener("dragleave", () => dropZone.classList.remove("dragging"));
dropZone.addEventListener("drop", (event) => {
  event.preventDefault();
  dropZone.classList.remove("dragging");
  chooseFile(event.dataTransfer.files[0]);
});
document.addEventListener("paste", (event) => {
  const item = [...(event.clipboardData?.items || [])].find((item) => item.type.startsWith("image/"));
  if (item) { selectTab("search"); chooseFile(item.getAsFile()); }
});

// A region: drag on the preview; the box is sent normalised to the picture (box=x,y,w,h).
(function regionDrawing() {
  const frame = document.querySelector(".preview-frame"), image = $("preview-image");
  let start = null;
  const point = (event) => {
    const rect = image.getBoundingClientRect();
    return {x: Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)),
            y: Math.min(1, Math.max(0, (event.clientY - rect.top) / rect.height))};
  };
  frame.addEventListener("pointerdown", (event) => { start = point(event); frame.setPointerCapture(event.pointerId); event.preventDefault(); });
  frame.addEventListener("pointermove", (event) => {
    if (!start) return;
    const end = point(event);
    search.box = {x: Math.min(start.x, end.x), y: Math.min(start.y, end.y), w: Math.abs(end.x - start.x), h: Math.abs(end.y - start.y)};
    drawBox();
  });
  frame.addEventListener("pointerup", () => {
    if (!start) return;
    start = null;
    if (search.box && (search.box.w < 0.03 || search.box.h < 0.03)) search.box = null;
    drawBox();
    runSearch();
  });
})();

function drawBox() {
  const overlay = $("box-overlay"), box = search.box;
  overlay.hidden = !box;
  $("clear-box").hidden = !box;
  if (!box) return;
  Object.assign(overlay.style, {left: box.x * 100 + "%", top: box.y * 100 + "%", width: box.w * 100 + "%", height: box.h * 100 + "%"});
}
$("clear-box").addEventListener("click", () => { search.box = null; drawBox(); runSearch(); });

const minScore = $("min-score");
minScore.addEventListener("input", () => { $("min-score-value").textContent = Number(minScore.value).toFixed(2); });
minScore.addEventListener("change", () => runSearch());
$("page-size").addEventListener("change", () => runSearch());

function queryParameters(extra = {}) {
  const parameters = new URLSearchParams({limit: $("page-size").value, min_score: Number(minScore.value).toFixed(2), ...extra});
  const box = search.box;
  if (box) parameters.set("box", [box.x, box.y, box.w, box.h].map((v) => v.toFixed(4)).join(","));
  return parameters;
}

function postPhoto(parameters) {
  return call("/v1/query?" + parameters, {
    method: "POST",
    headers: {"Content-Type": search.file.type || "application/octet-stream"},
    body: search.file,
  });
}

async function runSearch() {
  if (!search.file) return;
  const generation = ++search.generation;
  const results = $("results");
  $("explain-row")?.remove();
  results.replaceChildren(el("li", {class: "empty"}, "Searching…"));
  $("results-empty").hidden = true;
  $("more").hidden = true;
  $("labels").replaceChildren();
  try {
    const answer = await (await postPhoto(queryParameters())).json();
    if (generation !== search.generation) return;
    results.replaceChildren();
    renderLabels(answer);
    appendResults(answer);
  } catch (error) {
    if (generation === search.generation) showError(results, error);
  }
}

function renderLabels(answer) {
  const labels = answer.labels || [];
  const source = {given: "given", derived: "from the picture", "matched-place": "from the matched place", none: "none"}[answer.labelSource] || answer.labelSource;
  $("labels").replaceChildren(
    el("strong", {}, "Labels "), el("span", {class: "help"}, `(${source}):`),
    ...(labels.length ? labels.map((l) => el("span", {class: "chip"}, `${l.label} ${Number(l.score).toFixed(2)}`)) : [el("span", {class: "help"}, "none")]));
}

function appendResults(answer) {
  const results = $("results");
  for (const result of answer.results) results.append(resultCard(result));
  search.next = answer.next || null;
  $("more").hidden = !search.next;
  const shown = results.querySelectorAll(".card").length;
  $("results-empty").hidden = shown > 0;
  $("results-empty").textContent = Number(minScore.value) > 0
    ? "Nothing in the catalog passes the line for this picture. Lower the least score to see the candidates below it."
    : "The catalog has no candidate for this picture.";
  const t = answer.timings;
  $("timings").textContent = `${shown} of ${answer.total} shown` + (t ? ` · decode ${ms(t.decodeMs)} · query ${ms(t.queryMs)} · total ${ms(t.totalMs)}` : "");
  if (shown > 0 && !$("explain-button")) {
    results.before(el("p", {id: "explain-row"}, el("button", {type: "button", id: "explain-button", class: "secondary", onclick: explain}, "Show the matches drawn")));
  }
  announce(`${answer.total} result${answer.total === 1 ? "" : "s"} for ${search.file.name || "the pasted picture"}`);
}

const ms = (value) => `${Number(value).toFixed(1)} ms`;

function resultCard(result) {
  const entity = result.entity, display = entity.displayRepresentation || {};
  const accepted = result.evidence?.accepted !== false && result.score >= 0.5;
  const title = display.title || entity.id;
  return el("li", {class: "card" + (accepted ? "" : " below"), "data-entity": `${entity.type}/${entity.id}`},
    el("img", {class: "thumb", src: display.image || "", alt: display.image ? `Picture of ${title}` : ""}),
    el("div", {},
      el("h3", {}, el("a", {href: `#${entity.type}/${entity.id}`, onclick: (event) => { event.preventDefault(); openEntity(entity.type, entity.id); }}, title),
        el("span", {class: "badge type"}, result.type),
        el("span", {class: "badge " + (accepted ? "accepted" : "below")}, accepted ? "accepted" : "below the line")),
      display.subtitle ? el("p", {class: "subtitle"}, display.subtitle) : null,
      el("div", {}, "Score ", el("span", {class: "score"}, Number(result.score).toFixed(3))),
      el("div", {class: "meter", role: "presentation"}, el("span", {style: {width: `${Math.round(result.score * 100)}%`}})),
      el("p", {class: "reason"}, result.reason || "")));
}

$("more").addEventListener("click", async () => {
  if (!search.next) return;
  const generation = search.generation;
  try {
    const page = await getJSON("/v1/query/next?" + new URLSearchParams({cursor: search.next, limit: $("page-size").value}));
    if (generation === search.generation) appendResults(page);
  } catch (error) {
    showError($("results-empty"), error);
    $("results-empty").hidden = false;
  }
});

async function explain() {
  const row = $("explain-row");
  row.querySelector(".explain")?.remove();
  try {
    const blob = await (await postPhoto(queryParameters({explain: "1"}))).blob();
    row.append(el("div", {class: "explain"}, el("img", {src: URL.createObjectURL(blob),
      alt: "The photo beside the reference photo of each place found, with the matched points joined by lines"})));
  } catch (error) {
    row.append(el("p", {class: "error explain", role: "alert"}, error.message));
  }
}

// MARK: - Catalog

function entityButton(entity) {
  const display = entity.displayRepresentation || {};
  return el("li", {}, el("button", {type: "button", onclick: () => openEntity(entity.type, entity.id)},
    el("img", {src: display.image || "", alt: ""}),
    el("span", {}, el("strong", {}, display.title || entity.id), el("br"), el("small", {}, `${entity.type} · ${display.subtitle || ""}`))));
}

async function listEntities(promise) {
  const list = $("entity-list");
  list.replaceChildren(el("li", {class: "empty"}, "Searching…"));
  try {
    const {entities} = await promise;
    list.replaceChildren(...(entities.length ? entities.map(entityButton) : [el("li", {class: "empty"}, "No entity matches.")]));
  } catch (error) {
    showError(list, error);
  }
}

$("text-search").addEventListener("submit", (event) => {
  event.preventDefault();
  listEntities(getJSON("/v1/entities?" + new URLSearchParams({q: $("text-query").value, limit: "50"})));
});
$("property-search").addEventListener("submit", (event) => {
  event.preventDefault();
  const comparator = {property: $("property-name").value.trim(), comparator: $("property-comparator").value};
  if (comparator.comparator !== "isNil") comparator.value = $("property-value").value;
  listEntities(getJSON(`/v1/entities/${$("property-type").value}/query`, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({comparators: [comparator], limit: 50, sort: [{property: "name"}]}),
  }));
});

const linkList = (type, ids) => el("ul", {class: "link-list"}, ids.map((id) =>
  el("li", {}, el("button", {type: "button", onclick: () => openEntity(type, id)}, id))));

async function openEntity(type, id) {
  selectTab("catalog");
  const detail = $("entity-detail");
  detail.replaceChildren(el("p", {class: "empty"}, "Loading…"));
  try {
    const entity = await getJSON(`/v1/entities/${encodeURIComponent(type)}/${encodeURIComponent(id)}`);
    const display = entity.displayRepresentation || {}, properties = entity.properties || {};
    const rows = Object.entries(properties).filter(([name]) => name !== "places" && name !== "collections")
      .map(([name, value]) => el("tr", {}, el("th", {scope: "row"}, name), el("td", {}, Array.isArray(value) ? value.join(", ") : value ?? "—")));
    const parts = [
      el("h3", {}, display.title || id, el("span", {class: "badge type"}, type)),
      display.subtitle ? el("p", {class: "subtitle"}, display.subtitle) : null,
      display.image ? el("img", {class: "hero", src: display.image, alt: `Picture of ${display.title || id}`}) : null,
      el("table", {}, el("tbody", {}, rows)),
    ];
    if (type === "place") {
      parts.push(el("h4", {}, "Collections"), linkList("collection", properties.collections || []));
      parts.push(...await placeEditing(id));
    } else {
      parts.push(el("h4", {}, "Places"), linkList("place", properties.places || []));
      parts.push(...await collectionEditing(id));
    }
    detail.replaceChildren(...parts);
    announce(`${type} ${display.title || id}`);
  } catch (error) {
    showError(detail, error);
  }
}

/** The stored place with its photos and, with a token, its edit controls; nothing for a catalog folder. */
async function placeEditing(id) {
  let response;
  try {
    response = await call(`/v1/places/${encodeURIComponent(id)}`);
  } catch (error) {
    return error.code === "no_catalog_store" ? [el("p", {class: "help"}, "This daemon serves a catalog folder: it cannot be edited.")] : [];
  }
  const place = await response.json(), etag = response.headers.get("ETag");
  const status = el("p", {role: "status", "aria-live": "polite"});
  const parts = [el("h4", {}, "Photos"), el("ul", {}, place.photos.map((photo) => el("li", {},
    photo.name, photo.credit ? el("small", {class: "help"}, ` — ${photo.credit.author}, ${photo.credit.license}`) : null,
    token.get() ? el("button", {type: "button", class: "secondary", "aria-label": `Remove photo ${photo.name}`,
      onclick: () => edit(status, `/v1/places/${encodeURIComponent(id)}/photos/${encodeURIComponent(photo.id)}`, {method: "DELETE"}, "place", id)}, "Remove") : null)))];
  if (!token.get()) {
    parts.push(el("p", {class: "help"}, "To edit, give the admin token under Editing below."));
    return parts;
  }
  const field = (label, name, value) => [el("label", {for: "edit-" + name}, label), el("input", {id: "edit-" + name, value: value ?? ""})];
  const form = el("form", {class: "edit-form", onsubmit: (event) => {
    event.preventDefault();
    const list = (name) => form.querySelector("#edit-" + name).value.split(",").map((s) => s.trim()).filter(Boolean);
    const body = {name: form.querySelector("#edit-name").value, kind: form.querySelector("#edit-kind").value,
                  region: place.region, continent: place.continent, labels: list("labels"), collections: list("collections")};
    edit(status, `/v1/places/${encodeURIComponent(id)}`, {method: "PUT", headers: {"Content-Type": "application/json", "If-Match": etag}, body: JSON.stringify(body)}, "place", id);
  }},
    el("h4", {}, "Edit this place"), field("Name", "name", place.name), field("Kind", "kind", place.kind),
    field("Labels (comma-separated)", "labels", (place.labels || []).join(", ")),
    field("Collections (comma-separated)", "collections", (place.collections || []).join(", ")),
    el("button", {type: "submit"}, "Save"));
  const photoInput = el("input", {id: "add-photo", type: "file", accept: "image/jpeg,image/png"});
  const addPhoto = el("form", {class: "edit-form", onsubmit: (event) => {
    event.preventDefault();
    const file = photoInput.files[0];
    if (!file) return;
    edit(status, `/v1/places/${encodeURIComponent(id)}/photos?` + new URLSearchParams({name: file.name}),
      {method: "POST", headers: {"Content-Type": file.type || "application/octet-stream"}, body: file}, "place", id);
  }}, el("label", {for: "add-photo"}, "Add a photo"), photoInput, el("button", {type: "submit"}, "Add"));
  const remove = el("button", {type: "button", class: "danger", onclick: () => {
    if (confirm(`Delete the place ${id}?`)) edit(status, `/v1/places/${encodeURIComponent(id)}`, {method: "DELETE", headers: {"If-Match": etag}}, null, null);
  }}, "Delete this place");
  parts.push(form, addPhoto, el("p", {}, remove), status);
  return parts;
}

async function collectionEditing(id) {
  if (!token.get()) return [];
  const status = el("p", {role: "status", "aria-live": "polite"});
  const remove = el("button", {type: "button", class: "danger", onclick: () => {
    if (confirm(`Delete the collection ${id}?`)) edit(status, `/v1/collections/${encodeURIComponent(id)}`, {method: "DELETE"}, null, null);
  }}, "Delete this collection");
  return [el("p", {}, remove), status];
}

/** Sends an edit; shows the daemon's answer and, when it worked, the entity again (or nothing, after a delete). */
async function edit(status, path, options, type, id) {
  status.className = "";
  status.textContent = "Saving…";
  try {
    const answer = await getJSON(path, options);
    status.textContent = `Done: revision ${answer.revision ?? ""} (catalog sequence ${answer.sequence ?? "?"}).`;
    if (type) await openEntity(type, id);
    else $("entity-detail").replaceChildren(el("p", {role: "status"}, "Deleted."));
    refreshStatus();
  } catch (error) {
    status.className = "error";
    status.textContent = `${error.status} ${error.code}: ${error.message}`;
  }
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  token.set($("admin-token").value.trim());
  $("admin-token").value = "";
  announce(token.get() ? "Admin token set for this tab" : "Admin token cleared");
});

// MARK: - Health

/** The buckets of a Prometheus histogram for one label set: [{le, count}] (cumulative counts). */
function histogram(text, name, label) {
  const buckets = [];
  const pattern = new RegExp(`^${name}_bucket\\{(.*)\\} ([0-9.eE+-]+)$`);
  for (const line of text.split("\n")) {
    const match = pattern.exec(line);
    if (!match || !match[1].includes(label)) continue;
    const le = /le="([^"]+)"/.exec(match[1]);
    if (le) buckets.push({le: le[1] === "+Inf" ? Infinity : Number(le[1]), count: Number(match[2])});
  }
  return buckets.sort((a, b) => a.le - b.le);
}

function quantile(buckets, q) {
  const total = buckets.length ? buckets[buckets.length - 1].count : 0;
  if (!total) return null;
  const bucket = buckets.find((b) => b.count >= q * total);
  return bucket ? bucket.le : null;
}

const formatSeconds = (s) => s === Infinity ? "more" : s < 1 ? `${Math.round(s * 1000 * 100) / 100} ms` : `${s} s`;

async function refreshHealth() {
  const facts = $("health-facts");
  try {
    const [health, catalog, metrics] = await Promise.all([
      getJSON("/healthz"), getJSON("/v1/catalog"), (await call("/metrics")).text()]);
    const line = catalog.printLine;
    const rows = [
      ["Status", health.status + (health.catalogProblem ? ` — ${health.catalogProblem}` : "") + (health.matcherProblem ? ` — ${health.matcherProblem}` : "")],
      ["Catalog", `${catalog.places} places, ${catalog.collections} collections, ${catalog.photos} photos`],
      ["Store", `${catalog.store}${catalog.sequence ? `, sequence ${catalog.sequence}` : ""}${catalog.readOnly ? ", read-only" : ""}`],
      ["Accept line (print)", line ? `evidence ${Number(line.evidence).toFixed(3)}, measured on ${line.nulls} photos of no place (${line.nullsLeftOut} left out as copies of catalog photos); ${line.lookAlikePlaces} look-alike places hold a higher line` : "none (no feature print)"],
      ["Queries in flight", health.queriesInFlight],
    ];
    facts.replaceChildren(...rows.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]));
    const buckets = histogram(metrics, "glimpse_request_duration_seconds", 'route="/v1/query"');
    const chart = $("latency");
    let previous = 0;
    const counts = buckets.map((b) => { const n = b.count - previous; previous = b.count; return {le: b.le, n}; });
    const most = Math.max(1, ...counts.map((c) => c.n));
    chart.replaceChildren(...counts.map((c) => el("div", {class: "bar", style: {height: `${(c.n / most) * 100}%`}, title: `${c.n} under ${formatSeconds(c.le)}`},
      el("b", {}, c.n || ""), el("span", {}, c.le === Infinity ? "more" : "≤" + formatSeconds(c.le)))));
    const total = buckets.length ? buckets[buckets.length - 1].count : 0;
    const p50 = quantile(buckets, 0.5), p99 = quantile(buckets, 0.99);
    $("latency-summary").textContent = total
      ? `${total} picture queries since start; half took at most ${formatSeconds(p50)}, 99 % at most ${formatSeconds(p99)} (bucket bounds).`
      : "No picture query yet.";
    chart.setAttribute("aria-label", "Query latency histogram: " + $("latency-summary").textContent);
  } catch (error) {
    showError(facts, error);
  }
}
$("refresh-health").addEventListener("click", refreshHealth);
setInterval(() => { if (!$("health").hidden && !document.hidden) refreshHealth(); }, 5000);

async function refreshStatus() {
  try {
    const health = await getJSON("/healthz");
    announce(`${health.places} places · ${health.collections} collections · ${health.status}`);
  } catch (error) {
    announce(error.message);
  }
}

// An address such as #place/eiffel-tower opens that entity.
function followHash() {
  const match = /^#(place|collection)\/(.+)$/.exec(location.hash);
  if (match) openEntity(match[1], decodeURIComponent(match[2]));
}
window.addEventListener("hashchange", followHash);
refreshStatus();
followHash();
