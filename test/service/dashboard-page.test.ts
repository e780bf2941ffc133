/** GET / serves the dashboard without a build step and without third-party resources. */
import { expect } from "chai";
import { createApp } from "../../example-service/app.js";
import { listen, recordingLogger } from "./support/service-harness.js";

describe("example service: dashboard page", function () {
  it("serves the HTML, script and stylesheet from the service itself", async function () {
    await using app = await listen(createApp({ logger: recordingLogger() }));
    const page = await fetch(`${app.url}/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(page.headers.get("content-security-policy")).to.include("default-src 'self'");
    const html = await page.text();
    expect(html).to.include('<label for="country"').and.include('id="chart"').and.include("<table");
    expect(html).not.to.match(/(src|href)="(https?:)?\/\//);
    const script = await fetch(`${app.url}/dashboard.js`);
    expect(script.status).to.equal(200);
    expect(script.headers.get("content-type")).to.match(/javascript/);
    expect(await script.text()).to.include("fetch(`revenue");
    expect((await fetch(`${app.url}/dashboard.css`)).status).to.equal(200);
  });
});
