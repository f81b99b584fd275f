// Glimpse console: the catalog browser and its edits (/v1/entities, /v1/places, /v1/collections).
"use strict";

// MARK: - Catalog

function entityButton(entity) {
  const display = entity.displayRepresentation || {};
  return el("li", {}, el("button", {type: "button", onclick: () => openEntity(entity.type, entity.id)},
    el("img", {src: display.image || "", alt: "", loading: "lazy"}),
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
