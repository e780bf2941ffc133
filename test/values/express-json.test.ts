import { expect } from "chai";
import express from "express";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Decimal } from "../../runtime/values/decimal.js";
import { jsonResponse, sendJson } from "../../runtime/express/express-json.js";

describe("Express helpers: lossless JSON responses", () => {
  let server: Server;
  let base: string;

  before(async () => {
    const app = express();
    app.get("/send", (_req, res) =>
      sendJson(res, { revenue: 2n ** 63n - 1n, avg: Decimal.parse("12345678901234567890.123456789") }),
    );
    app.get("/created", (_req, res) => sendJson(res, { id: 1n }, 201));
    const wrapped = express.Router();
    wrapped.use(jsonResponse());
    wrapped.get("/json", (_req, res) => {
      res.json([{ country: "US", revenue: 9007199254740993n }]);
    });
    wrapped.get("/status", (_req, res) => {
      res.status(503).json({ detail: "warehouse unavailable" });
    });
    app.use("/mw", wrapped);
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  });

  it("sendJson writes exact numbers with a JSON content type", async () => {
    const response = await fetch(`${base}/send`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(await response.text()).to.equal('{"revenue":9223372036854775807,"avg":12345678901234567890.123456789}');
  });

  it("sendJson sets the status when given", async () => {
    const response = await fetch(`${base}/created`);
    expect(response.status).to.equal(201);
    expect(await response.text()).to.equal('{"id":1}');
  });

  it("jsonResponse() makes res.json lossless, status chaining included", async () => {
    const ok = await fetch(`${base}/mw/json`);
    expect(await ok.text()).to.equal('[{"country":"US","revenue":9007199254740993}]');
    const failed = await fetch(`${base}/mw/status`);
    expect(failed.status).to.equal(503);
    expect(failed.headers.get("content-type")).to.match(/^application\/json/);
    expect(await failed.json()).to.deep.equal({ detail: "warehouse unavailable" });
  });
});
