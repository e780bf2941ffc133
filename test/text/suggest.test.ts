/** The one "did you mean" module: both policies (names case-insensitively; config fields spelling-insensitively). */
import { expect } from "chai";
import { closestFieldName, closestName, levenshtein, normalizeName } from "../../runtime/text/suggest.js";

describe("text/suggest", () => {
  it("closestName: case-insensitive, within three edits by default, first wins on ties", () => {
    expect(levenshtein("Revenue", "REVENUE")).to.equal(0);
    expect(closestName("REVENU", ["cost", "revenue"])).to.equal("revenue");
    expect(closestName("ab", ["ax", "ay"])).to.equal("ax");
    expect(closestName("abcdefgh", ["zzzzzzzz"])).to.equal(undefined);
    expect(closestName("revenxx", ["revenue"], 1)).to.equal(undefined);
  });

  it("closestFieldName: ignores case, '_' and '-', with a budget of a third of the name (at least 2)", () => {
    expect(normalizeName("POOL-SIZE")).to.equal("poolsize");
    expect(closestFieldName("poolSize", ["pool_size", "max_overflow"])).to.equal("pool_size");
    expect(closestFieldName("pol_siz", ["pool_size"])).to.equal("pool_size"); // 2 edits
    expect(closestFieldName("pxxl_sxze", ["pool_size"])).to.equal(undefined); // 3 edits > 8/3
    expect(closestFieldName("http_path_and_more", ["http_path"])).to.equal(undefined);
    expect(closestFieldName("warehouse_idd", ["warehouse_id", "http_path"])).to.equal("warehouse_id");
  });
});
