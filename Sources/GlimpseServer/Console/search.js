// Glimpse console: search by picture (POST /v1/query, GET /v1/query/next), with a region and the line.
"use strict";

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
