/**
 * Backend B's `uri` mode: `<scheme>://token:<token>@<host>[:<port>]/<http-path>`. The whole string
 * is a secret (it embeds the token), so no message here ever includes any part of it.
 */

export interface BackendBUriParts {
  readonly scheme: string;
  readonly host: string;
  readonly port: number;
  readonly httpPath: string;
  readonly token: string;
}

export const BACKEND_B_URI_FORM = "<scheme>://token:<token>@<host>:<port>/<http-path>";
const DEFAULT_PORT = 443;

/** Parse the uri, or return a description of what is wrong (never containing the uri's text). */
export function parseBackendBUri(text: string): BackendBUriParts | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: "is not a valid URL" };
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (url.username !== "token") return { problem: `must carry the user name "token" (token:<token>@)` };
  if (url.password === "") return { problem: 'has no token after "token:"' };
  if (url.hostname === "") return { problem: "has no host" };
  if (url.search !== "" || url.hash !== "") return { problem: "must not have a query string or fragment" };
  const httpPath = safeDecode(url.pathname);
  const token = safeDecode(url.password);
  if (httpPath === undefined || token === undefined) return { problem: "has invalid percent-encoding" };
  if (httpPath === "" || httpPath === "/") return { problem: "has no HTTP path after the host" };
  return {
    scheme,
    host: url.hostname,
    port: url.port === "" ? DEFAULT_PORT : Number(url.port),
    httpPath,
    token,
  };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
