/** `GET /revenue[?country=XX]`: revenue per country from the `sales` semantic view, largest first. */
import type { RequestHandler } from "express";
import type { Engine } from "lib";
import { sendJson } from "lib/express";
import { RevenueByCountry, Sales } from "./model.js";
import { parseRevenueQuery } from "./revenue-query.js";

export function revenueHandler(engine: Engine | undefined): RequestHandler {
  return async (req, res) => {
    const { country } = parseRevenueQuery(req.query);
    const query = Sales.query()
      .metrics(Sales.revenue)
      .dimensions(Sales.country)
      .where(country === null ? null : Sales.country.eq(country))
      .orderBy(Sales.revenue.desc());
    // Without an explicit engine the query resolves the one registered as "default" at execution.
    await using cursor = await (engine === undefined ? query : query.using(engine)).execute();
    const rows = await cursor.into(RevenueByCountry);
    // Lossless JSON: bigint revenue is written as an exact integer (JSON.stringify would throw or round).
    sendJson(res, rows);
  };
}
