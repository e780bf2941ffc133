/** Code blocks of README.md, for the tests that compile and run what the README shows. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const README_PATH = fileURLToPath(new URL("../../README.md", import.meta.url));

export interface ReadmeBlock {
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

/** Every fenced block, in order. */
export function readmeBlocks(text = readFileSync(README_PATH, "utf8")): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
    blocks.push({ lang: m[1]!, code: m[2]!, line: text.slice(0, m.index).split("\n").length });
  }
  return blocks;
}

/** The one fenced block between `<!-- name:start -->` and `<!-- name:end -->`. */
export function markedBlock(name: string, text = readFileSync(README_PATH, "utf8")): ReadmeBlock {
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`README.md has no <!-- ${name}:start/end --> markers`);
  const [block] = readmeBlocks(text.slice(start, end));
  if (block === undefined) throw new Error(`README.md: no code block between the ${name} markers`);
  return { ...block, line: block.line + text.slice(0, start).split("\n").length - 1 };
}
