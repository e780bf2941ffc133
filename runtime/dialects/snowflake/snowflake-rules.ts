/** Cross-field rules of backend A: key material, and what each `auth_type` requires. */
import type { ConfigContext } from "../../config/config-context.js";
import { fieldIn, type FieldSpec } from "../../config/fields.js";
import { BACKEND_A_ALL_FIELDS } from "./snowflake-fields.js";
import type { BackendRules, ResolvedValues } from "../../config/resolved-values.js";

const field = (toml: string): FieldSpec => fieldIn(BACKEND_A_ALL_FIELDS, toml);

export const snowflakeRules: BackendRules = {
  validate(values: ResolvedValues, ctx: ConfigContext): void {
    const name = (toml: string) => values.describe(field(toml), ctx);
    if (values.has("private_key_path") && values.has("private_key_pem")) {
      throw ctx.fail(
        field("private_key_pem"),
        `cannot be combined with ${name("private_key_path")}: they are mutually exclusive, set only one`,
        values.entry("private_key_pem")?.origin,
      );
    }
    switch (values.get("auth_type")) {
      case "auth_sso":
        if (!values.has("sso_url"))
          throw ctx.fail(field("sso_url"), `is required when ${name("auth_type")} is "auth_sso"`);
        break;
      case "auth_oauth":
        if (!values.has("oauth_token"))
          throw ctx.fail(field("oauth_token"), `is required when ${name("auth_type")} is "auth_oauth"`);
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
