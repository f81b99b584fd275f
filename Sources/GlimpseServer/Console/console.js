// Glimpse console: what its pages share (making elements, calling the daemon's API, the tabs). The pages are
// search.js, catalog.js and health.js; start.js runs last. Plain scripts, in that order, sharing one global
// scope: the daemon's own API (docs/api.md), from the page's origin, with no library. Every text that comes
// from the daemon is set as text (never as HTML).
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
