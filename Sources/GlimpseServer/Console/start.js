// Glimpse console: start-up, after the other scripts: the status line, and an address such as
// #place/eiffel-tower opens that entity.
"use strict";

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
