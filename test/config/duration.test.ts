import { expect } from "chai";
import { parseDuration } from "./support/config-api.js";

describe("config: duration strings", () => {
  const good: ReadonlyArray<readonly [string, number]> = [
    ["300ms", 300],
    ["0ms", 0],
    ["0s", 0],
    ["1s", 1_000],
    ["30s", 30_000],
    ["1.5s", 1_500],
    ["1.001s", 1_001],
    ["2m", 120_000],
    ["1m30s", 90_000],
    ["1h", 3_600_000],
    ["1h2m3.5s", 3_723_500],
    ["1h30m", 5_400_000],
    ["1h500ms", 3_600_500],
    ["2m0.25s", 120_250],
    ["1s250ms", 1_250],
    ["0.5m", 30_000],
    ["0.001h", 3_600],
    ["90m", 5_400_000],
  ];
  for (const [text, ms] of good) {
    it(`parses ${JSON.stringify(text)} as ${ms} ms`, () => {
      expect(parseDuration(text)).to.equal(ms);
    });
  }

  const bad: ReadonlyArray<readonly [string, RegExp]> = [
    ["", /empty/],
    ["30", /needs a unit/],
    ["1.5", /needs a unit/],
    ["0", /needs a unit/],
    ["s", /unexpected text/],
    ["ms", /unexpected text/],
    ["-1s", /unexpected text/],
    ["+1s", /unexpected text/],
    ["1 s", /unexpected text/],
    [" 1s", /unexpected text/],
    ["1s ", /unexpected text/],
    ["1m 30s", /unexpected text/],
    ["1d", /unexpected text/],
    ["1sec", /unexpected text/],
    ["1S", /unexpected text/],
    ["1H", /unexpected text/],
    ["1us", /unexpected text/],
    ["1.s", /unexpected text/],
    [".5s", /unexpected text/],
    ["1e3ms", /unexpected text/],
    ["1s1s", /repeated or out of order/],
    ["30s1m", /repeated or out of order/],
    ["1ms1s", /repeated or out of order/],
    ["0.5ms", /whole milliseconds/],
    ["1.0001s", /whole milliseconds/],
    ["99999999999999999h", /too large/],
    ["PT1S", /unexpected text/],
  ];
  for (const [text, message] of bad) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(() => parseDuration(text)).to.throw(message);
    });
  }
});
