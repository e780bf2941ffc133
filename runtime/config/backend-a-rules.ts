/** Cross-field rules of backend A: key material, and what each `auth_type` requires. */
import type { ConfigContext } from "./config-context.js";
import { fieldsFor, type FieldSpec } from "./fields.js";
import type { BackendRules, ResolvedValues } from "./resolved-values.js";

const field = (toml: string): FieldSpec => {
  const spec = fieldsFor("backend_a").find((f) => f.toml === toml);
  if (spec === undefined) throw new Error(`no backend_a field ${toml}`);
  return spec;
};

export const backendARules: BackendRules = {
  validate(values: ResolvedValues, ctx: ConfigContext): void {
    const name = (toml: string) => {
      const entry = values.entry(toml);
      return entry === undefined ? ctx.nameOf(field(toml)) : ctx.describe(entry.field, entry.origin);
    };
    if (values.has("private_key_path") && values.has("private_key_pem")) {
      throw ctx.fail(
        field("private_key_pem"),
        `cannot be combined with ${name("private_key_path")}: they are mutually exclusive, set only one`,
        values.entry("private_key_pem")?.origin,
      );
    }
    switch (values.get("auth_type")) {
      case "auth_sso":
        if (!values.has("sso_url")) throw ctx.fail(field("sso_url"), `is required when ${name("auth_type")} is "auth_sso"`);
        break;
      case "auth_oauth":
        if (!values.has("oauth_token")) throw ctx.fail(field("oauth_token"), `is required when ${name("auth_type")} is "auth_oauth"`);
        break;
      case "auth_jwt":
        if (!values.has("private_key_path") && !values.has("private_key_pem")) {
          throw ctx.fail(
            field("private_key_path"),
            `(or ${ctx.nameOf(field("private_key_pem"))}) is required when ${name("auth_type")} is "auth_jwt"`,
          );
        }
        break;
    }
  },
};
