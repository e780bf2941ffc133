/**
 * End-to-end: the dashboard and the API docs rendered by a real headless Chromium (Debian package
 * `chromium`, driven through playwright-core without any browser download). Screenshots go to
 * test-output/. Skipped (loudly) only when no Chromium executable is installed.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { createApp } from "../../example-service/app.js";
import { BackendCConfig, createEngine } from "lib";
import { listen, recordingLogger, seededEngine } from "../service/support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";
import { OUTPUT_DIR, useDemoInChromium } from "./support/chromium.js";

const outputDir = OUTPUT_DIR;

describe("e2e: dashboard and docs in headless Chromium", function () {
  this.timeout(120_000);
  const demo = useDemoInChromium(1100);

  it("renders one bar per country with the exact revenue, and filters by country", async function () {
    const page = await demo.context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text())));
    page.on("pageerror", (e) => void consoleErrors.push(e.message));
    const expected = (await (await fetch(`${demo.url}/revenue`)).json()) as { country: string; revenue: number }[];
    expect(expected).to.have.length(36);

    await page.goto(`${demo.url}/`);
    await page.waitForSelector("body[data-state=ready]");
    const bars = page.locator("svg#chart rect.bar");
    expect(await bars.count()).to.equal(expected.length);
    const shown = await bars.evaluateAll((rects) =>
      rects.map((r) => ({ country: r.getAttribute("data-country"), revenue: Number(r.getAttribute("data-revenue")) })),
    );
    expect(shown).to.deep.equal(expected);
    // Accessible structure: labelled list items and a table with the same rows.
    expect(await page.locator("svg#chart [role=listitem][aria-label]").count()).to.equal(expected.length);
    expect(await page.locator("#table tbody tr").count()).to.equal(expected.length);
    // The country picker lists the countries of the data.
    const picker = page.getByLabel("Country", { exact: true });
    expect(await picker.locator("option").count()).to.equal(expected.length + 1);
    // Bars are drawn with real widths, largest first.
    const widths = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute("width"))));
    expect(widths[0]).to.be.greaterThan(widths.at(-1)!);
    await page.screenshot({ path: join(outputDir, "dashboard.png"), fullPage: true });

    const picked = expected[1]!;
    await picker.selectOption(picked.country);
    await page.waitForFunction(() => document.querySelectorAll("svg#chart rect.bar").length === 1);
    expect(await bars.getAttribute("data-country")).to.equal(picked.country);
    expect(new URL(page.url()).searchParams.get("country")).to.equal(picked.country);
    await page.screenshot({ path: join(outputDir, "dashboard-filtered.png"), fullPage: true });

    // A country typed in another case (a shared link) finds the data's spelling.
    await page.goto(`${demo.url}/?country=${picked.country.toLowerCase()}`);
    await page.waitForFunction(
      () => document.body.dataset.state === "ready" && document.querySelectorAll("rect.bar").length === 1,
    );
    expect(await bars.getAttribute("data-country")).to.equal(picked.country);
    expect(await picker.inputValue()).to.equal(picked.country);

    // No data: an empty state instead of an empty chart frame.
    await page.goto(`${demo.url}/?country=XX`);
    await page.waitForFunction(() => document.body.dataset.state === "ready");
    expect(await page.locator("#empty").isVisible()).to.equal(true);
    expect(await page.locator("#empty").textContent()).to.include("No revenue for “XX”");
    expect(await page.locator("#chart-section").isVisible()).to.equal(false);
    expect(await page.locator("#table-section").isVisible()).to.equal(false);
    await page.screenshot({ path: join(outputDir, "dashboard-empty.png"), fullPage: true });
    expect(consoleErrors).to.deep.equal([]);
    await page.close();
  });

  it("is readable on a 390 px wide phone: text at its CSS size, nothing wider than the screen", async function () {
    const page = await demo.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${demo.url}/`);
    await page.waitForSelector("body[data-state=ready]");
    const layout = await page.evaluate(() => {
      const label = document.querySelector("svg#chart text.label")!.getBoundingClientRect();
      const value = document.querySelector("svg#chart text.value")!.getBoundingClientRect();
      return {
        headerTop: document.querySelector("h1")!.getBoundingClientRect().top,
        labelHeight: label.height,
        valueHeight: value.height,
        labelRight: label.right,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    // 13 px / 12 px text renders at least ~11 px tall (a 900-unit chart squeezed to 390 px gave ~5 px).
    expect(layout.labelHeight).to.be.at.least(11);
    expect(layout.valueHeight).to.be.at.least(10);
    // The title keeps the header's top padding (a phone media query once reset it to 0: issue 21 item 8).
    expect(layout.headerTop).to.be.at.least(12);
    expect(layout.labelRight).to.be.at.most(390);
    expect(layout.pageWidth).to.be.at.most(390);
    await page.screenshot({ path: join(outputDir, "dashboard-390px.png"), fullPage: true });
    await page.close();
  });

  it("shows revenue above 2^53 with every digit", async function () {
    await using bigDir = await tempDir();
    const bigEngine = await seededEngine(
      bigDir.path,
      [
        { country: "US", region: "North America", revenue: 4503599627370496n },
        { country: "US", region: "North America", revenue: 4503599627370497n },
        { country: "DE", region: "Europe", revenue: 12n },
      ],
      { integerType: "BIGINT" },
    );
    try {
      await using bigApp = await listen(createApp({ engine: bigEngine, logger: recordingLogger() }));
      const page = await demo.context.newPage();
      await page.goto(`${bigApp.url}/`);
      await page.waitForSelector("body[data-state=ready]");
      expect(await page.locator("#table tbody tr").first().getAttribute("data-revenue")).to.equal("9007199254740993");
      expect(await page.locator("#table tbody tr td.num").first().textContent()).to.equal("9,007,199,254,740,993");
      await page.screenshot({ path: join(outputDir, "dashboard-bigint.png"), fullPage: true });
      await page.close();
    } finally {
      await bigEngine.dispose();
    }
  });

  it("tells the user when the warehouse is unavailable", async function () {
    await using brokenDir = await tempDir();
    const database = brokenDir.file("broken.duckdb");
    await writeFile(database, "not a database\n".repeat(100));
    const brokenEngine = createEngine(new BackendCConfig({ database, poolSize: 1 }));
    try {
      await using brokenApp = await listen(createApp({ engine: brokenEngine, logger: recordingLogger() }));
      const page = await demo.context.newPage();
      await page.goto(`${brokenApp.url}/`);
      await page.waitForSelector("body[data-state=error]");
      expect(await page.getByRole("alert").textContent()).to.equal(
        "Could not load revenue: Data warehouse is unavailable",
      );
      expect(await page.locator("svg#chart rect.bar").count()).to.equal(0);
      await page.screenshot({ path: join(outputDir, "dashboard-unavailable.png"), fullPage: true });
      await page.close();
    } finally {
      await brokenEngine.dispose();
    }
  });

  it("renders the API docs with the RevenueByCountry schema", async function () {
    const page = await demo.context.newPage();
    await page.goto(`${demo.url}/docs/`);
    await page.waitForSelector(".swagger-ui .opblock-summary-path");
    expect(await page.locator(".opblock-summary-path").first().textContent()).to.include("/revenue");
    // The "Schemas" section lists the component models by title.
    await page.getByText("RevenueByCountry", { exact: true }).first().waitFor();
    await page.getByText("HTTPError", { exact: true }).first().waitFor();
    // Open the operation: its responses show the schema too.
    await page.locator(".opblock-summary").first().click();
    await page.locator(".opblock-body .responses-wrapper").waitFor();
    const text = await page.locator("body").innerText();
    expect(text).to.include("RevenueByCountry").and.include("country").and.include("revenue").and.include("HTTPError");
    await page.screenshot({ path: join(outputDir, "docs.png"), fullPage: true });
    await page.close();
  });
});
