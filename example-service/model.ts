/**
 * The `sales` semantic view and the `/revenue` response model, as `lib codegen` generated them
 * from the demo database (see codegen/README.md). The service imports them from here only.
 */
export { RevenueByCountry, Sales } from "../generated/index.js";
