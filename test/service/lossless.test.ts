/** Revenue above 2^53 travels as an exact JSON integer (not rounded, not a string). */
import { expect } from "chai";
import { createApp } from "../../example-service/app.js";
import { listen, recordingLogger, seededEngine } from "./support/service-harness.js";
import { tempDir } from "../support/temp-dir.js";

describe("example service: lossless revenue", function () {
  it("writes a BIGINT sum above 2^53 as the exact integer", async function () {
    await using dir = await tempDir();
    // 2^52 + (2^52 + 1) = 2^53 + 1: the first integer a JS number cannot hold.
    const engine = await seededEngine(
      dir.path,
      [
        { country: "XL", region: "Big", revenue: 4503599627370496n },
        { country: "XL", region: "Big", revenue: 4503599627370497n },
        { country: "MAX", region: "Big", revenue: 9223372036854775807n },
        { country: "SM", region: "Small", revenue: 7n },
      ],
      { integerType: "BIGINT" },
    );
    try {
      await using app = await listen(createApp({ engine, logger: recordingLogger() }));
      const text = await (await fetch(`${app.url}/revenue`)).text();
      expect(text).to.equal(
        '[{"country":"MAX","revenue":9223372036854775807},{"country":"XL","revenue":9007199254740993},{"country":"SM","revenue":7}]',
      );
      // A plain JSON.parse rounds it, which is exactly why the body must be the digits themselves.
      expect((JSON.parse(text) as { revenue: number }[])[1]!.revenue).to.equal(2 ** 53);
      const filtered = await (await fetch(`${app.url}/revenue?country=XL`)).text();
      expect(filtered).to.equal('[{"country":"XL","revenue":9007199254740993}]');
    } finally {
      await engine.dispose();
    }
  });
});
