// Revenue dashboard: fetches /revenue, draws an accessible SVG bar chart and a table.
// Revenue can exceed 2^53, so it is kept as a BigInt parsed from the JSON source text.

const SVG = "http://www.w3.org/2000/svg";
const numberFormat = new Intl.NumberFormat("en-US");
const regionNames = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames(["en"], { type: "region" }) : null;

const form = document.getElementById("filter");
const picker = document.getElementById("country");
const statusLine = document.getElementById("status");
const errorLine = document.getElementById("error");
const summary = document.getElementById("summary");
const emptyLine = document.getElementById("empty");
const chartSection = document.getElementById("chart-section");
const tableSection = document.getElementById("table-section");
const chart = document.getElementById("chart");
const tbody = document.querySelector("#table tbody");

// Chromium 114+ passes the source text of each primitive to JSON.parse revivers.
const reviverHasSource = (() => {
  try {
    return JSON.parse("1", (_key, value, context) => context?.source) === "1";
  } catch {
    return false;
  }
})();

/** Parses a /revenue body into [{country, revenue: bigint}], exactly. */
export function parseRevenue(text) {
  if (reviverHasSource) {
    return JSON.parse(text, (key, value, context) =>
      key === "revenue" && typeof value === "number" ? BigInt(context.source) : value,
    );
  }
  // Fallback: quote revenue integers before parsing (a `"revenue":` inside a string is escaped, so never matches).
  const quoted = text.replace(/([{,]\s*"revenue"\s*:\s*)(-?\d+)(?=\s*[,}])/g, '$1"$2"');
  return JSON.parse(quoted, (key, value) => (key === "revenue" && typeof value === "string" ? BigInt(value) : value));
}

function countryName(code) {
  try {
    const name = regionNames?.of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}

const formatRevenue = (value) => numberFormat.format(value);

let drawn = [];

/**
 * Draws at the figure's real width (1 SVG unit = 1 CSS pixel, so text keeps its CSS size on a phone).
 * Below 560 px the country name goes above its bar instead of beside it.
 */
function drawChart(rows) {
  drawn = rows;
  chart.replaceChildren();
  const width = Math.max(Math.floor(chart.parentElement.clientWidth) - 24, 260);
  const stacked = width < 560;
  const barHeight = stacked ? 18 : 22;
  const labelHeight = stacked ? 18 : 0;
  const gap = 6;
  const labelWidth = stacked ? 0 : 190;
  const valueWidth = stacked ? 90 : 110;
  const plotWidth = width - labelWidth - valueWidth;
  const rowHeight = labelHeight + barHeight + gap;
  const height = Math.max(rows.length, 1) * rowHeight + gap;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.setAttribute("width", String(width));
  chart.setAttribute("height", String(height));
  const max = rows.reduce((m, r) => (r.revenue > m ? r.revenue : m), 0n);

  rows.forEach((row, index) => {
    const top = gap + index * rowHeight;
    const y = top + labelHeight;
    // Ratio computed in BigInt (per 10,000) so huge values stay correct relative to each other.
    const fraction = max > 0n && row.revenue > 0n ? Number((row.revenue * 10000n) / max) / 10000 : 0;
    const barWidth = Math.max(fraction * plotWidth, 1);
    const name = countryName(row.country);
    const group = document.createElementNS(SVG, "g");
    group.setAttribute("role", "listitem");
    group.setAttribute("aria-label", `${name} (${row.country}): ${formatRevenue(row.revenue)}`);

    const title = document.createElementNS(SVG, "title");
    title.textContent = `${name} (${row.country}): ${formatRevenue(row.revenue)}`;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("class", "label");
    label.setAttribute("x", String(stacked ? 0 : labelWidth - 8));
    label.setAttribute("y", String(stacked ? top + labelHeight / 2 : y + barHeight / 2));
    label.setAttribute("text-anchor", stacked ? "start" : "end");
    label.setAttribute("dominant-baseline", "middle");
    label.setAttribute("aria-hidden", "true");
    label.textContent = `${name} (${row.country})`;
    const bar = document.createElementNS(SVG, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("data-country", row.country);
    bar.setAttribute("data-revenue", row.revenue.toString());
    bar.setAttribute("x", String(labelWidth));
    bar.setAttribute("y", String(y));
    bar.setAttribute("height", String(barHeight));
    bar.setAttribute("width", barWidth.toFixed(2));
    bar.setAttribute("rx", "3");
    // Long bars carry their value inside, so big numbers never run past the chart's edge.
    const inside = fraction > 0.7;
    const value = document.createElementNS(SVG, "text");
    value.setAttribute("class", inside ? "value inside" : "value");
    value.setAttribute("x", String(labelWidth + (inside ? barWidth - 8 : barWidth + 6)));
    value.setAttribute("text-anchor", inside ? "end" : "start");
    value.setAttribute("y", String(y + barHeight / 2));
    value.setAttribute("dominant-baseline", "middle");
    value.setAttribute("aria-hidden", "true");
    value.textContent = formatRevenue(row.revenue);
    group.append(title, label, bar, value);
    chart.append(group);
  });
}

function drawTable(rows) {
  tbody.replaceChildren(
    ...rows.map((row, index) => {
      const tr = document.createElement("tr");
      tr.dataset.country = row.country;
      tr.dataset.revenue = row.revenue.toString();
      const rank = document.createElement("td");
      rank.textContent = String(index + 1);
      const country = document.createElement("th");
      country.scope = "row";
      country.textContent = `${countryName(row.country)} (${row.country})`;
      const revenue = document.createElement("td");
      revenue.className = "num";
      revenue.textContent = formatRevenue(row.revenue);
      tr.append(rank, country, revenue);
      return tr;
    }),
  );
}

/** Fills the picker with the countries in the data, by name (codes compare case-insensitively). */
function fillCountryChoices(rows) {
  if (picker.options.length > 1) return;
  const choices = rows
    .map((row) => ({ code: row.country, name: countryName(row.country) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  picker.append(
    ...choices.map(({ code, name }) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name === code ? code : `${name} (${code})`;
      return option;
    }),
  );
}

/** The data's spelling of a country code typed in any case (`de` → `DE`), or the text as given. */
function canonicalCountry(text) {
  const wanted = text.trim().toUpperCase();
  return [...picker.options].find((o) => o.value.toUpperCase() === wanted)?.value ?? text.trim();
}

function showEmpty(country) {
  chartSection.hidden = true;
  tableSection.hidden = true;
  emptyLine.textContent = `No revenue for “${country}”. Pick another country or show all.`;
  emptyLine.hidden = false;
}

let generation = 0;

async function load(country) {
  const mine = ++generation;
  const query = country ? `?country=${encodeURIComponent(country)}` : "";
  statusLine.textContent = country ? `Loading revenue for ${country}…` : "Loading revenue for all countries…";
  errorLine.hidden = true;
  document.body.dataset.state = "loading";
  try {
    const response = await fetch(`revenue${query}`, { headers: { Accept: "application/json" } });
    const text = await response.text();
    if (mine !== generation) return;
    if (!response.ok) {
      let detail = `HTTP ${response.status}`;
      try {
        detail = JSON.parse(text).detail ?? detail;
      } catch {}
      throw new Error(detail);
    }
    const rows = parseRevenue(text);
    if (!country) fillCountryChoices(rows);
    emptyLine.hidden = true;
    chartSection.hidden = false;
    tableSection.hidden = false;
    drawChart(rows);
    drawTable(rows);
    const total = rows.reduce((sum, r) => sum + r.revenue, 0n);
    if (rows.length === 0) showEmpty(country);
    summary.textContent =
      rows.length === 0
        ? ""
        : `${rows.length} ${rows.length === 1 ? "country" : "countries"}, total revenue ${formatRevenue(total)}.`;
    statusLine.textContent = country ? `Showing ${country}.` : "Showing all countries.";
    document.body.dataset.state = "ready";
  } catch (error) {
    if (mine !== generation) return;
    drawChart([]);
    drawTable([]);
    chartSection.hidden = true;
    tableSection.hidden = true;
    emptyLine.hidden = true;
    summary.textContent = "";
    statusLine.textContent = "";
    errorLine.textContent = `Could not load revenue: ${error.message}`;
    errorLine.hidden = false;
    document.body.dataset.state = "error";
  }
}

function apply(country) {
  const url = new URL(location.href);
  if (country) url.searchParams.set("country", country);
  else url.searchParams.delete("country");
  history.replaceState(null, "", url);
  return load(country);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  apply(picker.value);
});
picker.addEventListener("change", () => apply(picker.value));
document.getElementById("clear").addEventListener("click", () => {
  picker.value = "";
  apply("");
  picker.focus();
});
// Redraw at the new width (rotating a phone, resizing a window).
let resizeFrame = 0;
new ResizeObserver(() => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => drawn.length > 0 && drawChart(drawn));
}).observe(chart.parentElement);

async function start() {
  const requested = new URLSearchParams(location.search).get("country") ?? "";
  if (!requested) return load("");
  // The picker comes from the unfiltered data; then the requested country, in the data's spelling.
  try {
    const response = await fetch("revenue");
    if (response.ok) fillCountryChoices(parseRevenue(await response.text()));
  } catch {}
  const country = canonicalCountry(requested);
  picker.value = country;
  return apply(country);
}
start();
