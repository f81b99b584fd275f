// Glimpse console: the health page (/healthz, /v1/catalog, /metrics).
"use strict";

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
