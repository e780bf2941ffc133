/**
 * End-to-end: the explorer (any generated view through /api) in headless Chromium at 1280 and 390 px:
 * table, chart and the SQL of the three dialects; state in the address bar; loading, empty and error
 * states; operated with the keyboard. Screenshots go to test-output/ and are checked for content.
 */
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { expect } from "chai";
import type { Page } from "playwright-core";
import express from "express";
import { fileURLToPath } from "node:url";
import { Orders, OrdersFacts, OrdersRow } from "../support/served-views.js";
import { createSalesEngine } from "../support/sales-engine.js";
import { serveRouter } from "../request/support/router-fixture.js";
import { OUTPUT_DIR, useDemoInChromium } from "./support/chromium.js";

const PUBLIC_DIR = fileURLToPath(new URL("../../example-service/public/", import.meta.url));

/** How many distinct byte values a PNG's decoded scanlines hold: a blank image has a handful. */
function pixelVariety(png: Buffer): number {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString("latin1", at + 4, at + 8) === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return new Set(inflateSync(Buffer.concat(idat))).size;
}

describe("e2e: the explorer in headless Chromium", function () {
  this.timeout(120_000);
  const demo = useDemoInChromium(1280);

  async function open(query: string, width = 1280): Promise<{ page: Page; errors: string[] }> {
    const page = await demo.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const errors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    page.on("pageerror", (e) => void errors.push(e.message));
    await page.goto(`${demo.url}/explorer.html${query}`);
    return { page, errors };
  }

  async function expectVisibleResults(page: Page, name: string, rows: number): Promise<void> {
    expect(await page.locator("#table tbody tr").count()).to.equal(rows);
    expect(await page.locator("#chart rect.bar").count()).to.equal(Math.min(rows, 40));
    for (const selector of ["#table", "#chart"]) {
      const element = page.locator(selector);
      expect(await element.isVisible(), selector).to.equal(true);
      expect(pixelVariety(await element.screenshot()), `${selector} has content`).to.be.greaterThan(20);
    }
    await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`), fullPage: true });
  }

  it("at 1280 px: table, chart and the SQL of three dialects for a bookmarked query, after a loading state", async () => {
    const { page, errors } = await open("");
    await page.route("**/api/views/sales/query", async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await page.goto(`${demo.url}/explorer.html?view=sales&metrics=revenue,cost&dimensions=region&orderBy=-revenue`);
    await page.waitForSelector("body[data-state=loading]");
    expect(await page.locator("main").getAttribute("aria-busy")).to.equal("true");
    await page.waitForSelector("body[data-state=ready]");
    await expectVisibleResults(page, "explorer", 6);
    expect(await page.locator("#table thead th").allTextContents()).to.deep.equal(["region", "revenue", "cost"]);
    expect(
      await page.locator(".sql-block").evaluateAll((blocks) => blocks.map((b) => b.getAttribute("data-dialect"))),
    ).to.deep.equal(["backend_a", "backend_b", "backend_c"]);
    expect(await page.locator(".sql-block[data-dialect=backend_a] code").textContent()).to.include(
      'SEMANTIC_VIEW("SALES"',
    );
    expect(await page.locator(".sql-block[data-dialect=backend_b] code").textContent()).to.include(
      "MEASURE(`revenue`)",
    );
    expect(await page.getByLabel("Order by").inputValue()).to.equal("-revenue");
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("is operated with the keyboard, and keeps the query in the address bar", async () => {
    const { page, errors } = await open("?view=sales&metrics=revenue");
    await page.waitForSelector("body[data-state=ready]");
    await page.getByRole("checkbox", { name: "country" }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Add filter" }).focus();
    await page.keyboard.press("Enter"); // the new filter's member picker takes the focus (country, =)
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.type("DE");
    await page.keyboard.press("Enter"); // submits the form
    await page.waitForFunction(
      () => document.body.dataset.state === "ready" && document.querySelectorAll("#table tbody tr").length === 1,
    );
    expect(await page.locator("#table tbody tr td").first().textContent()).to.equal("DE");
    const url = new URL(page.url());
    expect(url.searchParams.get("dimensions")).to.equal("country");
    expect(JSON.parse(url.searchParams.get("where")!)).to.deep.equal([{ field: "country", op: "eq", value: "DE" }]);
    // Reloading the bookmark gives the same answer.
    await page.reload();
    await page.waitForFunction(
      () => document.body.dataset.state === "ready" && document.querySelectorAll("#table tbody tr").length === 1,
    );
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("shows an empty state and an error state naming the field", async () => {
    const where = encodeURIComponent(JSON.stringify([{ field: "country", op: "eq", value: "XX" }]));
    const { page, errors } = await open(`?view=sales&metrics=revenue&dimensions=country&where=${where}`);
    await page.waitForSelector("body[data-state=ready]");
    expect(await page.locator("#empty").isVisible()).to.equal(true);
    expect(await page.locator("#table-section").isVisible()).to.equal(false);
    await page.goto(`${demo.url}/explorer.html?view=sales&metrics=revenue&limit=100000`);
    await page.waitForSelector("body[data-state=error]");
    expect(await page.getByRole("alert").textContent()).to.include("limit: at most 10000");
    await page.screenshot({ path: join(OUTPUT_DIR, "explorer-error.png"), fullPage: true });
    // The 422 is the failed request the console reports; nothing else went wrong.
    expect(errors.filter((e) => !e.includes("422"))).to.deep.equal([]);
    await page.close();
  });

  it("filters a timestamp member with a UTC date-time input and a date member with a date input", async () => {
    // The orders fixture (a TIMESTAMP and a DATE member) behind the real request core, the same pages.
    const engine = createSalesEngine({ orders: true, name: "" });
    await using api = await serveRouter({ views: { Orders, OrdersRow, OrdersFacts }, engine }, (app) =>
      app.use(express.static(PUBLIC_DIR)),
    );
    try {
      const site = api.url.replace(/\/api$/, "");
      // A bookmark written with a zone: 14:34:56.789+02:00 is 12:34:56.789 UTC, order 1's instant.
      const where = [{ field: "orderedAt", op: "gte", value: "2024-02-29T14:34:56.789+02:00" }];
      const { page, errors } = await open("");
      const ready = (rows: number) =>
        page.waitForFunction(
          (n) => document.body.dataset.state === "ready" && document.querySelectorAll("#table tbody tr").length === n,
          rows,
        );
      await page.goto(
        `${site}/explorer.html?view=orders&metrics=orderCount&dimensions=orderedAt&where=${encodeURIComponent(JSON.stringify(where))}`,
      );
      await ready(2);
      const at = page.getByLabel("Filter 1: value");
      expect(await at.getAttribute("type")).to.equal("datetime-local");
      expect(await at.getAttribute("step")).to.equal("0.001"); // milliseconds: what a Date (and the API) holds
      expect(await at.inputValue()).to.equal("2024-02-29T12:34:56.789");
      expect(await page.locator(".filter-values .unit").textContent()).to.equal("UTC");
      expect(await page.getByLabel("Filter 1: operator").locator("option").allTextContents()).to.include("between");

      // One millisecond later leaves order 1 out; the request (and the bookmark) says UTC with a Z.
      await at.fill("2024-02-29T12:34:56.790");
      await page.getByRole("button", { name: "Run query" }).click();
      await ready(1);
      expect(JSON.parse(new URL(page.url()).searchParams.get("where")!)).to.deep.equal([
        { field: "orderedAt", op: "gte", value: "2024-02-29T12:34:56.79Z" }, // as Chromium writes it,
      ]);

      // The input's bounds are values the request core accepts: the last instant of year 9999.
      await page.getByLabel("Filter 1: operator").selectOption("lte");
      await at.fill((await at.getAttribute("max"))!);
      await page.getByRole("button", { name: "Run query" }).click();
      await ready(3);

      // A DATE member gets a date input (no time of day), bounded the same way.
      await page.getByRole("button", { name: "Add filter" }).click();
      await page.getByLabel("Filter 2: member").selectOption("orderedOn");
      const on = page.getByLabel("Filter 2: value");
      expect(await on.getAttribute("type")).to.equal("date");
      expect(await on.getAttribute("max")).to.equal("9999-12-31");
      await on.fill("2024-03-01");
      await page.getByRole("button", { name: "Run query" }).click();
      await ready(1);
      expect(await page.locator("#table tbody tr td").first().textContent()).to.match(/^2024-03-01T00:00:00(\.000)?Z$/);
      await page.screenshot({ path: join(OUTPUT_DIR, "explorer-timestamp-filter.png"), fullPage: true });
      expect(errors).to.deep.equal([]);
      await page.close();
    } finally {
      await engine.dispose();
    }
  });

  it("at 390 px: nothing wider than the screen, the title clear of the top edge", async () => {
    const { page, errors } = await open("?view=sales&metrics=revenue&dimensions=country&orderBy=-revenue", 390);
    await page.waitForSelector("body[data-state=ready]");
    await expectVisibleResults(page, "explorer-390px", 36);
    const layout = await page.evaluate(() => ({
      pageWidth: document.documentElement.scrollWidth,
      headerTop: document.querySelector("h1")!.getBoundingClientRect().top + window.scrollY,
      chartRight: document.querySelector("#chart")!.getBoundingClientRect().right,
    }));
    expect(layout.pageWidth).to.be.at.most(390);
    expect(layout.chartRight).to.be.at.most(390);
    expect(layout.headerTop).to.be.at.least(12);
    expect(errors).to.deep.equal([]);
    await page.close();
  });
});
