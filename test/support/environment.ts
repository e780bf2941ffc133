/** Process environment for tests: set variables for one body, or keep the host's variables out of a suite. */

type Variables = Readonly<Record<string, string | undefined>>;

function apply(values: Variables): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/** Sets (or, for undefined, removes) `vars` while `body` runs, then restores the previous values. */
export async function withEnv<T>(vars: Variables, body: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  apply(vars);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

/** Mocha hooks: `keys` are unset for the whole suite and restored afterwards. */
export function useIsolatedEnv(keys: readonly string[]): void {
  let saved: Variables = {};
  before(() => {
    saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
    apply(Object.fromEntries(keys.map((key) => [key, undefined])));
  });
  after(() => apply(saved));
}
