// Explorer: any generated view through /api. Pick a view, metrics, dimensions and filters (inputs typed by
// the member's value type); see the rows, a chart and the compiled SQL for every dialect. The query lives in
// the address bar in the same form as GET /api/views/:view/query, so a bookmark reproduces it.

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const form = $("query");
const viewPicker = $("view");
const orderPicker = $("order");
const limitInput = $("limit");
const filterList = $("filter-list");
const statusLine = $("status");
const errorBox = $("error");
const emptyLine = $("empty");

const NUMERIC = new Set(["integer", "number", "bigint", "decimal"]);
const OPERATORS = {
  string: ["eq", "ne", "in", "notIn", "startsWith", "endsWith", "contains", "like", "isNull", "isNotNull"],
  numeric: ["eq", "ne", "gt", "gte", "lt", "lte", "between", "in", "notIn", "isNull", "isNotNull"],
  date: ["eq", "ne", "gt", "gte", "lt", "lte", "between", "isNull", "isNotNull"],
  boolean: ["eq", "ne", "isNull", "isNotNull"],
  unknown: ["eq", "ne", "in", "notIn", "isNull", "isNotNull"],
};
const OPERATOR_LABELS = {
  eq: "=",
  ne: "≠",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  in: "is one of",
  notIn: "is none of",
  between: "between",
  like: "like",
  startsWith: "starts with",
  endsWith: "ends with",
  contains: "contains",
  isNull: "is empty",
  isNotNull: "is not empty",
};
const DIALECT_LABELS = {
  backend_a: "Backend A (Snowflake)",
  backend_b: "Backend B (Databricks)",
  backend_c: "Backend C (DuckDB)",
};

let members = [];
let generation = 0;
/** The arguments of the last chart drawn, for redrawing at a new width. */
let lastChart;

// A timestamp compares like a date: the same operators, a date-time input.
const typeGroup = (type) =>
  NUMERIC.has(type) ? "numeric" : type === "timestamp" ? "date" : OPERATORS[type] ? type : "unknown";
const member = (name) => members.find((m) => m.name === name);

// The request core's date forms: a year of four digits, and an instant to the millisecond at most.
const DATE_MAX = "9999-12-31";
const DATE_TIME_MAX = "9999-12-31T23:59:59.999";
const ZONED = /(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A timestamp filter value as a datetime-local input shows it: the UTC wall clock (the API reads a
 * date-time without a zone as UTC, as lib reads TIMESTAMP_NTZ columns). A bookmark may hold a zone or a
 * day alone; anything the input cannot show is left empty for the user to fill.
 */
function utcWallClock(value) {
  const text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00`;
  if (ZONED.test(text)) {
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? "" : instant.toISOString().slice(0, 23);
  }
  return text.replace(" ", "T").slice(0, 23);
}

// Chromium passes each number's source text to JSON.parse revivers: keep the exact digits of every number.
class Exact {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}
function parseExact(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === "number" && context?.source ? new Exact(context.source) : value,
  );
}

const grouping = new Intl.NumberFormat("en-US");
function display(value) {
  if (value === null || value === undefined) return "—";
  if (value instanceof Exact) {
    const [whole, fraction] = value.text.split(".");
    if (/^-?\d+$/.test(whole) && !/[eE]/.test(value.text))
      return grouping.format(BigInt(whole)) + (fraction === undefined ? "" : `.${fraction}`);
    return value.text;
  }
  return String(value);
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// ----- state <-> address bar (the GET form of the query API) -----

function readState() {
  const search = new URLSearchParams(location.search);
  const list = (key) => (search.get(key) ?? "").split(",").filter((v) => v !== "");
  let where = [];
  try {
    const parsed = JSON.parse(search.get("where") ?? "[]");
    where = Array.isArray(parsed) ? parsed : [parsed];
  } catch {}
  return {
    view: search.get("view") ?? "",
    metrics: list("metrics"),
    dimensions: list("dimensions"),
    where,
    orderBy: search.get("orderBy") ?? "",
    limit: search.get("limit") ?? "",
  };
}

function currentRequest() {
  const checked = (id) => [...document.querySelectorAll(`#${id} input:checked`)].map((i) => i.value);
  const request = { metrics: checked("metrics"), dimensions: checked("dimensions") };
  const where = [...filterList.children].map(filterOf).filter((f) => f !== undefined);
  if (where.length > 0) request.where = where;
  if (orderPicker.value) request.orderBy = [orderPicker.value];
  if (limitInput.value) request.limit = limitInput.value;
  for (const key of ["metrics", "dimensions"]) if (request[key].length === 0) delete request[key];
  return request;
}

function writeState(request) {
  const search = new URLSearchParams({ view: viewPicker.value });
  if (request.metrics) search.set("metrics", request.metrics.join(","));
  if (request.dimensions) search.set("dimensions", request.dimensions.join(","));
  if (request.where) search.set("where", JSON.stringify(request.where));
  if (request.orderBy) search.set("orderBy", request.orderBy.join(","));
  if (request.limit) search.set("limit", request.limit);
  history.replaceState(null, "", `?${search}`);
}

// ----- controls -----

function checkboxes(id, kind, chosen) {
  const box = $(id);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const m of members.filter((x) => x.kind === kind)) {
    const input = el("input", { type: "checkbox", name: id, value: m.name });
    input.checked = chosen.includes(m.name);
    input.addEventListener("change", fillOrder);
    box.append(
      el(
        "label",
        { class: "check", title: `${m.type}${m.description ? ` · ${m.description}` : ""}` },
        input,
        ` ${m.name}`,
      ),
    );
  }
  box.hidden = box.querySelectorAll("label").length === 0;
}

function fillOrder(selected = orderPicker.value) {
  const names = [...document.querySelectorAll("#metrics input:checked, #dimensions input:checked")].map((i) => i.value);
  const keep = typeof selected === "string" ? selected : orderPicker.value;
  orderPicker.replaceChildren(el("option", { value: "", text: "(default)" }));
  for (const name of names) {
    orderPicker.append(
      el("option", { value: name, text: `${name} ascending` }),
      el("option", { value: `-${name}`, text: `${name} descending` }),
    );
  }
  orderPicker.value = [...orderPicker.options].some((o) => o.value === keep) ? keep : "";
}

let filterCount = 0;
function addFilter(initial = {}) {
  const n = ++filterCount;
  const filterable = members.filter((m) => m.kind !== "metric");
  const field = el("select", { "aria-label": `Filter ${n}: member`, class: "filter-field" });
  for (const m of filterable) field.append(el("option", { value: m.name, text: m.name }));
  const op = el("select", { "aria-label": `Filter ${n}: operator`, class: "filter-op" });
  const values = el("span", { class: "filter-values" });
  const remove = el("button", {
    type: "button",
    class: "secondary",
    "aria-label": `Remove filter ${n}`,
    text: "Remove",
  });
  const row = el("li", { class: "filter" }, field, op, values, remove);
  const fillOps = () => {
    const ops = OPERATORS[typeGroup(member(field.value)?.type)];
    const previous = op.value;
    op.replaceChildren(...ops.map((o) => el("option", { value: o, text: OPERATOR_LABELS[o] })));
    op.value = ops.includes(previous) ? previous : ops[0];
  };
  const fillValues = (value) => {
    const m = member(field.value);
    const input = (label, v) => {
      if (m?.type === "boolean") {
        const select = el(
          "select",
          { "aria-label": label },
          el("option", { value: "true", text: "true" }),
          el("option", { value: "false", text: "false" }),
        );
        if (v !== undefined) select.value = String(v);
        return select;
      }
      const attributes = { "aria-label": label, required: "" };
      if (m?.type === "date") Object.assign(attributes, { type: "date", max: DATE_MAX });
      else if (m?.type === "timestamp")
        Object.assign(attributes, { type: "datetime-local", step: "0.001", max: DATE_TIME_MAX, title: "UTC" });
      else if (NUMERIC.has(m?.type))
        Object.assign(attributes, {
          type: "text",
          inputmode: "decimal",
          pattern: "-?[0-9]+(\\.[0-9]+)?",
          placeholder: "number",
        });
      else Object.assign(attributes, { type: "text" });
      const box = el("input", attributes);
      if (v !== undefined && v !== null)
        box.value = m?.type === "date" ? String(v).slice(0, 10) : m?.type === "timestamp" ? utcWallClock(v) : String(v);
      return box;
    };
    const label = `Filter ${n}: value`;
    if (op.value === "isNull" || op.value === "isNotNull") values.replaceChildren();
    else if (op.value === "between")
      values.replaceChildren(
        input(`${label} from`, value?.[0]),
        el("span", { text: " and " }),
        input(`${label} to`, value?.[1]),
      );
    else if (op.value === "in" || op.value === "notIn") {
      const box = input(`${label}s, comma-separated`, Array.isArray(value) ? value.join(", ") : undefined);
      box.removeAttribute("pattern");
      box.placeholder = "a, b, c";
      values.replaceChildren(box);
    } else values.replaceChildren(input(label, value));
    if (m?.type === "timestamp" && values.childElementCount > 0)
      values.append(el("span", { class: "unit", text: "UTC" }));
  };
  if (initial.field) field.value = initial.field;
  fillOps();
  if (initial.op) op.value = initial.op;
  fillValues(initial.value);
  field.addEventListener("change", () => (fillOps(), fillValues()));
  op.addEventListener("change", () => fillValues());
  remove.addEventListener("click", () => {
    row.remove();
    $("add-filter").focus();
  });
  filterList.append(row);
  return field;
}

function filterOf(row) {
  const fieldName = row.querySelector(".filter-field").value;
  const op = row.querySelector(".filter-op").value;
  const inputs = [...row.querySelectorAll(".filter-values input, .filter-values select")].map((i) => i.value.trim());
  const type = member(fieldName)?.type;
  // Numbers and dates travel as strings: the API parses them exactly by the member's declared type. A
  // timestamp input holds a UTC wall clock; the Z says so in the request (and in the bookmark).
  const typed = (v) => (type === "boolean" ? v === "true" : type === "timestamp" && v !== "" ? `${v}Z` : v);
  if (op === "isNull" || op === "isNotNull") return { field: fieldName, op };
  if (op === "between") return { field: fieldName, op, value: inputs.map(typed) };
  if (op === "in" || op === "notIn")
    return {
      field: fieldName,
      op,
      value: inputs[0]
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== "")
        .map(typed),
    };
  return { field: fieldName, op, value: typed(inputs[0]) };
}

async function chooseView(name, state) {
  const response = await fetch(`api/views/${encodeURIComponent(name)}`);
  if (!response.ok) throw await problemError(response);
  members = (await response.json()).members;
  checkboxes(
    "metrics",
    "metric",
    state?.metrics ??
      members
        .filter((m) => m.kind === "metric")
        .slice(0, 1)
        .map((m) => m.name),
  );
  checkboxes(
    "dimensions",
    "dimension",
    state?.dimensions ??
      members
        .filter((m) => m.kind === "dimension")
        .slice(0, 1)
        .map((m) => m.name),
  );
  filterList.replaceChildren();
  for (const f of state?.where ?? []) if (f && typeof f.field === "string") addFilter(f);
  fillOrder(state?.orderBy ?? "");
  limitInput.value = state?.limit ?? "";
}

// ----- results -----

async function problemError(response) {
  let detail = `HTTP ${response.status}`;
  let errors = [];
  try {
    const problem = await response.json();
    detail = problem.detail ?? detail;
    errors = problem.errors ?? [];
  } catch {}
  return Object.assign(new Error(detail), { errors, status: response.status });
}

function drawTable(columns, rows) {
  const head = el(
    "tr",
    {},
    ...columns.map((c) => el("th", { scope: "col", class: c.numeric ? "num" : "", text: c.name })),
  );
  document.querySelector("#table thead").replaceChildren(head);
  document
    .querySelector("#table tbody")
    .replaceChildren(
      ...rows.map((row) =>
        el("tr", {}, ...columns.map((c) => el("td", { class: c.numeric ? "num" : "", text: display(row[c.name]) }))),
      ),
    );
}

function drawChart(rows, metric, labels) {
  lastChart = [rows, metric, labels];
  const chart = $("chart");
  chart.replaceChildren();
  const shown = rows.slice(0, 40);
  const width = Math.max(Math.floor(chart.parentElement.clientWidth) - 24, 260);
  const narrow = width < 560;
  const labelWidth = narrow ? 0 : Math.min(220, width * 0.3);
  const valueWidth = narrow ? 100 : 130;
  const barHeight = 18;
  const labelHeight = narrow ? 16 : 0;
  const rowHeight = barHeight + labelHeight + 6;
  const plot = width - labelWidth - valueWidth;
  const values = shown.map((r) => Number(String(r[metric] ?? 0)));
  const max = Math.max(...values.map(Math.abs), 0);
  chart.setAttribute("viewBox", `0 0 ${width} ${shown.length * rowHeight + 6}`);
  chart.setAttribute("width", String(width));
  chart.setAttribute("height", String(shown.length * rowHeight + 6));
  shown.forEach((row, i) => {
    const top = 6 + i * rowHeight;
    const label = labels.map((d) => display(row[d])).join(" · ") || metric;
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("role", "listitem");
    g.setAttribute("aria-label", `${label}: ${display(row[metric])}`);
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("class", "label");
    text.setAttribute("x", String(narrow ? 0 : labelWidth - 8));
    text.setAttribute("y", String(top + (narrow ? labelHeight / 2 : barHeight / 2)));
    text.setAttribute("text-anchor", narrow ? "start" : "end");
    text.setAttribute("dominant-baseline", "middle");
    text.textContent = label;
    const bar = document.createElementNS(SVG, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("x", String(labelWidth));
    bar.setAttribute("y", String(top + labelHeight));
    bar.setAttribute("height", String(barHeight));
    bar.setAttribute("width", String(Math.max(max > 0 ? (Math.abs(values[i]) / max) * plot : 0, 1).toFixed(2)));
    bar.setAttribute("rx", "3");
    const value = document.createElementNS(SVG, "text");
    value.setAttribute("class", "value");
    value.setAttribute("x", String(labelWidth + Number(bar.getAttribute("width")) + 6));
    value.setAttribute("y", String(top + labelHeight + barHeight / 2));
    value.setAttribute("dominant-baseline", "middle");
    value.textContent = display(row[metric]);
    g.append(text, bar, value);
    chart.append(g);
  });
  $("chart-caption").textContent =
    `${metric} by ${labels.join(", ") || "(total)"}${rows.length > shown.length ? `, first ${shown.length} of ${rows.length} rows` : ""}. Exact values are in the table.`;
}

function drawSql(body) {
  $("sql").replaceChildren(
    ...Object.entries(body.dialects).map(([dialect, compiled]) =>
      el(
        "div",
        { class: "sql-block", "data-dialect": dialect },
        el("h3", { text: `${DIALECT_LABELS[dialect] ?? dialect}${dialect === body.backend ? " · runs here" : ""}` }),
        el("pre", {}, el("code", { text: compiled.sql ?? compiled.error })),
        el("p", {
          class: "hint",
          text: compiled.parameters ? `Parameters: ${JSON.stringify(compiled.parameters.map(String))}` : "",
        }),
      ),
    ),
  );
}

function setState(state, message) {
  document.body.dataset.state = state;
  document.querySelector("main").setAttribute("aria-busy", String(state === "loading"));
  statusLine.textContent = message;
}

async function run() {
  const mine = ++generation;
  const request = currentRequest();
  writeState(request);
  setState("loading", `Running the query on ${viewPicker.value}…`);
  errorBox.hidden = true;
  const body = JSON.stringify(request);
  const post = (path) =>
    fetch(`api/views/${encodeURIComponent(viewPicker.value)}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
    });
  try {
    const [answer, sql] = await Promise.all([post("query"), post("sql")]);
    if (mine !== generation) return;
    if (!answer.ok) throw await problemError(answer);
    const page = parseExact(await answer.text());
    if (sql.ok) {
      drawSql(await sql.json());
      $("sql-section").hidden = false;
    }
    const selected = [...(request.dimensions ?? []), ...(request.metrics ?? [])];
    const columns = selected.map((name) => ({ name, numeric: NUMERIC.has(member(name)?.type) }));
    emptyLine.hidden = page.rows.length > 0;
    $("table-section").hidden = page.rows.length === 0;
    drawTable(columns, page.rows);
    const metric = request.metrics?.[0];
    $("chart-section").hidden = page.rows.length === 0 || metric === undefined;
    if (metric !== undefined && page.rows.length > 0) drawChart(page.rows, metric, request.dimensions ?? []);
    $("truncated").hidden = !page.truncated;
    $("truncated").textContent = page.truncated
      ? `Showing the first ${page.rows.length} rows; set a row limit or filters to see the rest.`
      : "";
    setState("ready", `${page.rows.length} ${page.rows.length === 1 ? "row" : "rows"} from ${viewPicker.value}.`);
  } catch (error) {
    if (mine !== generation) return;
    $("chart-section").hidden = $("table-section").hidden = true;
    emptyLine.hidden = true;
    const items = (error.errors ?? []).map((e) => el("li", { text: `${e.field}: ${e.message}` }));
    errorBox.replaceChildren(
      el("p", { text: `The query failed: ${error.message}` }),
      ...(items.length > 0 ? [el("ul", {}, ...items)] : []),
    );
    errorBox.hidden = false;
    setState("error", "");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (form.reportValidity()) run();
});
viewPicker.addEventListener("change", () => chooseView(viewPicker.value).then(run, showStartError));
$("add-filter").addEventListener("click", () => addFilter().focus());
// Redraw the chart at a new width (rotating a phone, resizing a window); heights changing do not count.
let drawnWidth = 0;
new ResizeObserver((entries) => {
  const width = Math.round(entries[0].contentRect.width);
  if (width === drawnWidth) return;
  drawnWidth = width;
  if (lastChart !== undefined && !$("chart-section").hidden) drawChart(...lastChart);
}).observe(document.querySelector("main"));

function showStartError(error) {
  errorBox.replaceChildren(el("p", { text: `Could not load the views: ${error.message}` }));
  errorBox.hidden = false;
  setState("error", "");
}

async function start() {
  setState("loading", "Loading the views…");
  const response = await fetch("api/views");
  if (!response.ok) throw await problemError(response);
  const { views } = await response.json();
  viewPicker.replaceChildren(...views.map((v) => el("option", { value: v.name, text: v.name })));
  const state = readState();
  if (views.some((v) => v.name === state.view)) viewPicker.value = state.view;
  await chooseView(viewPicker.value, state.view === viewPicker.value ? state : undefined);
  await run();
}
start().catch(showStartError);
