/**
 * `lib codegen --check` classifies what changed in the model between the generated directory's record
 * (lib-model.json) and the warehouse: against real DuckDB files (backend C) whose second version
 * removes a view and a member, renames a metric, retypes a dimension and moves a metric to another
 * table (so a metric-dimension pair is no longer allowed), as text and as `--format json`, exit 1; a
 * model that only gains a view and a member exits 0 with a notice.
 */
import { join } from "node:path";
import { expect } from "chai";
import { runCodegen } from "../../codegen/codegen.js";
import { classifyChanges, isBreaking, type ModelChange } from "../../codegen/drift/classify.js";
import type { ModelRecord } from "../../codegen/drift/model-record.js";
import { changeLine } from "../../codegen/drift/report.js";
import { createDatabase } from "./support/databases.js";
import { tempDir } from "../support/temp-dir.js";
import { markedBlock } from "../support/readme-blocks.js";

const TABLES = [
  "CREATE TABLE orders (id INTEGER, region VARCHAR, customer_id INTEGER, total INTEGER)",
  "CREATE TABLE line_items (id INTEGER, order_id INTEGER, price INTEGER, status VARCHAR)",
];
const SALES_BEFORE = `CREATE SEMANTIC VIEW sales AS
  TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
  RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
  DIMENSIONS (o.region AS o.region, li.status AS li.status, o.customer AS o.customer_id, li.line_id AS li.id)
  METRICS (li.revenue AS SUM(li.price), o.order_count AS COUNT(*))`;
const OLD_VIEW = `CREATE SEMANTIC VIEW old_view AS TABLES (o AS orders PRIMARY KEY (id))
  DIMENSIONS (o.region AS o.region) METRICS (o.n AS COUNT(*))`;
const BEFORE = [...TABLES, SALES_BEFORE, OLD_VIEW];
/** line_id removed, customer now a string, order_count renamed orders, revenue moved to the order grain. */
const BREAKING = [
  ...TABLES,
  `CREATE SEMANTIC VIEW sales AS
  TABLES (o AS orders PRIMARY KEY (id), li AS line_items PRIMARY KEY (id))
  RELATIONSHIPS (li_to_order AS li(order_id) REFERENCES o)
  DIMENSIONS (o.region AS o.region, li.status AS li.status, o.customer AS CAST(o.customer_id AS VARCHAR))
  METRICS (o.revenue AS SUM(o.total), o.orders AS COUNT(*))`,
];
const ADDITIVE = [
  ...TABLES,
  SALES_BEFORE.replace("li.line_id AS li.id)", "li.line_id AS li.id, o.order_id AS o.id)"),
  OLD_VIEW,
  `CREATE SEMANTIC VIEW new_view AS TABLES (o AS orders PRIMARY KEY (id)) DIMENSIONS (o.region AS o.region)`,
];

interface Run {
  readonly code: number;
  readonly out: string;
}

async function codegen(cwd: string, database: string, extra: { check?: boolean; format?: "json" } = {}): Promise<Run> {
  const lines: string[] = [];
  const code = await runCodegen(
    { backend: "backend_c", database, ...extra },
    { cwd, env: {}, stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) },
  );
  return { code, out: lines.join("\n") };
}

describe("lib codegen --check: classified model drift (backend C)", function () {
  this.timeout(300_000);
  /** What the two runs printed: the README's example lines must be among them. */
  const printed: string[] = [];
  after(() => {
    const [header, ...lines] = markedBlock("readme-drift").code.trimEnd().split("\n");
    expect(header).to.match(/^Model changes \(\d+ breaking changes?, \d+ additions?, \d+ notices?\):$/);
    for (const line of lines) expect(printed.join("\n"), "README example line").to.contain(line);
  });

  it("names removed, renamed and retyped members, refused pairs and removed views; exit 1 as text and JSON", async () => {
    await using dir = await tempDir();
    const before = await createDatabase(dir.path, "before.duckdb", BEFORE);
    const after = await createDatabase(dir.path, "after.duckdb", BREAKING);
    expect((await codegen(dir.path, before)).code).to.equal(0);

    const json = await codegen(dir.path, after, { check: true, format: "json" });
    expect(json.code, json.out).to.equal(1);
    const report = JSON.parse(json.out) as {
      current: boolean;
      exitCode: number;
      breaking: boolean;
      changes: (ModelChange & { breaking: boolean })[];
    };
    expect(report).to.include({ current: false, exitCode: 1, breaking: true });
    const summary = report.changes.map((c) => `${c.breaking ? "breaking" : "notice"} ${summarize(c)}`);
    expect(summary).to.have.members([
      "breaking view-removed old_view",
      "breaking member-removed sales.line_id",
      "breaking member-renamed sales.order_count -> orders",
      "breaking type-changed sales.customer dimension<number> -> dimension<string>",
      "notice expression-changed sales.customer",
      "notice expression-changed sales.revenue",
      "breaking pair-removed sales.revenue x status",
    ]);

    const text = await codegen(dir.path, after, { check: true });
    printed.push(text.out);
    expect(text.code).to.equal(1);
    expect(text.out).to.contain("Model changes (5 breaking changes, 0 additions, 2 notices):");
    expect(text.out).to.contain('breaking  view "old_view" removed (class OldView)');
    expect(text.out).to.contain("breaking  sales.order_count renamed to orders (same kind, value type and expression)");
    expect(text.out).to.contain("breaking  sales: metric revenue can no longer be grouped by dimension status");
    expect(text.out).to.contain("Re-run lib codegen without --check");
  });

  it("a model that only gains a view and a member exits 0 with a notice", async () => {
    await using dir = await tempDir();
    const before = await createDatabase(dir.path, "before.duckdb", BEFORE);
    const after = await createDatabase(dir.path, "after.duckdb", ADDITIVE);
    expect((await codegen(dir.path, before)).code).to.equal(0);
    const text = await codegen(dir.path, after, { check: true });
    printed.push(text.out);
    expect(text.code, text.out).to.equal(0);
    expect(text.out).to.contain("Model changes (0 breaking changes, 2 additions, 0 notices):");
    expect(text.out).to.contain("addition  sales.order_id added (a dimension)");
    expect(text.out).to.contain('addition  view "new_view" added (class NewView)');
    expect(text.out).to.contain("Nothing a caller can notice changed; re-run lib codegen without --check");
    const json = JSON.parse((await codegen(dir.path, after, { check: true, format: "json" })).out) as {
      exitCode: number;
      breaking: boolean;
    };
    expect(json).to.include({ exitCode: 0, breaking: false });
  });

  it("classifies records: a rename needs the same kind, type and expression; a pair added is an addition", () => {
    const view = (members: ModelRecord["views"][string]["members"], groupableBy = {}) => ({
      class: "Sales",
      members,
      groupableBy,
    });
    const m = (kind: "metric" | "dimension", type: string, expression: string) => ({
      kind,
      name: "",
      type,
      expression,
    });
    const before: ModelRecord = {
      views: {
        sales: view(
          { revenue: m("metric", "bigint", "sum(price)"), region: m("dimension", "string", "region") },
          { revenue: [] },
        ),
      },
    };
    const after: ModelRecord = {
      views: {
        sales: view({ total: m("metric", "number", "sum(price)"), region: m("dimension", "string", "region") }),
      },
    };
    // A different value type is no rename: the member is removed and another added.
    const changes = classifyChanges(before, after);
    expect(changes.map((c) => `${c.kind} ${isBreaking(c)}`)).to.deep.equal([
      "member-removed true",
      "member-added false",
    ]);
    const pairs = classifyChanges(before, {
      views: { sales: view(before.views.sales!.members) },
    });
    expect(pairs.map(changeLine)).to.deep.equal([
      "addition  sales: metric revenue can now be grouped by dimension region",
    ]);
  });
});

function summarize(c: ModelChange): string {
  switch (c.kind) {
    case "view-removed":
    case "view-added":
      return `${c.kind} ${c.view}`;
    case "member-renamed":
      return `${c.kind} ${c.view}.${c.field} -> ${c.to}`;
    case "type-changed":
      return `${c.kind} ${c.view}.${c.field} ${c.from} -> ${c.to}`;
    case "pair-removed":
    case "pair-added":
      return `${c.kind} ${c.view}.${c.metric} x ${c.dimension}`;
    case "comment-changed":
      return `${c.kind} ${c.view}${c.field === undefined ? "" : `.${c.field}`}`;
    default:
      return `${c.kind} ${c.view}.${c.field}`;
  }
}
