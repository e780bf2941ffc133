/**
 * How the stand-in hands a finished result to the driver, as a warehouse decides it from the
 * request's flags: Arrow batches inline (LZ4-framed when the client said `canDecompressLZ4Result`),
 * Thrift columns (a warehouse without Arrow), or CloudFetch links (`canDownloadResult` and a large
 * result) to files on the separate storage server. The same metadata and first rows also go out as
 * `directResults` in the ExecuteStatement response when the client asked for them.
 */
import { createRequire } from "node:module";
import { arrowBatchBytes, arrowSchemaBytes, type StandInColumn } from "./arrow-result.js";
import type { CloudStorage } from "./cloud-storage.js";
import { thriftColumns } from "./column-result.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- the Thrift runtime is untyped JS */
const require = createRequire(import.meta.url);
const T = (require("@databricks/sql") as { thrift: { TCLIService_types: any } }).thrift.TCLIService_types;
const thrift = require(require.resolve("thrift", { paths: [require.resolve("@databricks/sql")] })) as any;
const Int64 = thrift.Int64 as new (value: number) => unknown;
/** The driver's own LZ4 frame codec (lz4-napi, an optional dependency): undefined where it is not installed. */
export function lz4Codec(): { encode(data: Buffer): Buffer } | undefined {
  return (
    require("@databricks/sql/dist/utils/lz4.js") as { default: () => { encode(data: Buffer): Buffer } | undefined }
  ).default();
}

function lz4Frame(bytes: Buffer): Buffer {
  const codec = lz4Codec();
  if (codec === undefined) throw new Error("stand-in: LZ4 asked for, but lz4-napi is not installed");
  return codec.encode(bytes);
}

export interface Delivery {
  readonly format: "arrow" | "columns" | "links";
  /** Arrow bytes (inline batches and CloudFetch files) are LZ4 frames. */
  readonly lz4: boolean;
  /** The session time zone, for TIMESTAMP text in Thrift columns. */
  readonly timeZone: string;
}

export interface DeliveredResult {
  readonly columns: readonly StandInColumn[];
  readonly rows: readonly (readonly unknown[])[];
  offset: number;
}

const ok = () => new T.TStatus({ statusCode: T.TStatusCode.SUCCESS_STATUS });

/** A Thrift table schema for the columns: TTypeId per column, DECIMAL with precision and scale. */
function tableSchema(columns: readonly StandInColumn[]): unknown {
  return new T.TTableSchema({
    columns: columns.map((c, i) => {
      const typeQualifiers =
        c.typeName === "DECIMAL"
          ? new T.TTypeQualifiers({
              qualifiers: {
                precision: new T.TTypeQualifierValue({ i32Value: c.precision }),
                scale: new T.TTypeQualifierValue({ i32Value: c.scale }),
              },
            })
          : undefined;
      const primitiveEntry = new T.TPrimitiveTypeEntry({ type: T.TTypeId[`${c.typeName}_TYPE`], typeQualifiers });
      return new T.TColumnDesc({
        columnName: c.name,
        typeDesc: new T.TTypeDesc({ types: [new T.TTypeEntry({ primitiveEntry })] }),
        position: i + 1,
      });
    }),
  });
}

export function metadataResponse(columns: readonly StandInColumn[], delivery: Delivery): unknown {
  if (delivery.format === "columns") {
    return new T.TGetResultSetMetadataResp({
      status: ok(),
      schema: tableSchema(columns),
      resultFormat: T.TSparkRowSetType.COLUMN_BASED_SET,
    });
  }
  return new T.TGetResultSetMetadataResp({
    status: ok(),
    schema: tableSchema(columns),
    resultFormat: delivery.format === "links" ? T.TSparkRowSetType.URL_BASED_SET : T.TSparkRowSetType.ARROW_BASED_SET,
    lz4Compressed: delivery.lz4,
    arrowSchema: arrowSchemaBytes(columns),
  });
}

/** The next rows (at most `maxRows`; CloudFetch: every remaining row, as files of `fileRows`). */
export function fetchResponse(
  result: DeliveredResult,
  maxRows: number,
  delivery: Delivery,
  storage: CloudStorage,
  fileRows: number,
): unknown {
  const start = result.offset;
  const arrow = (rows: readonly (readonly unknown[])[]) => {
    const bytes = arrowBatchBytes(result.columns, rows);
    return delivery.lz4 ? lz4Frame(bytes) : bytes;
  };
  if (delivery.format === "links") {
    const resultLinks: unknown[] = [];
    for (let from = start; from < result.rows.length; from += fileRows) {
      const rows = result.rows.slice(from, from + fileRows);
      // A result file is a whole Arrow IPC stream: its own schema message, then the batch.
      const ipc = Buffer.concat([arrowSchemaBytes(result.columns), arrowBatchBytes(result.columns, rows)]);
      const bytes = delivery.lz4 ? lz4Frame(ipc) : ipc;
      const file = storage.put(bytes);
      resultLinks.push(
        new T.TSparkArrowResultLink({
          fileLink: file.url,
          expiryTime: new Int64(Date.now() + 15 * 60_000),
          startRowOffset: new Int64(from),
          rowCount: new Int64(rows.length),
          bytesNum: new Int64(bytes.length),
          httpHeaders: file.headers,
        }),
      );
    }
    result.offset = result.rows.length;
    return new T.TFetchResultsResp({
      status: ok(),
      hasMoreRows: false,
      results: new T.TRowSet({ startRowOffset: new Int64(start), rows: [], resultLinks }),
    });
  }
  const slice = result.rows.slice(start, start + maxRows);
  result.offset += slice.length;
  const hasMoreRows = result.offset < result.rows.length;
  if (delivery.format === "columns") {
    const columns = thriftColumns(result.columns, slice, delivery.timeZone);
    return new T.TFetchResultsResp({
      status: ok(),
      hasMoreRows,
      results: new T.TRowSet({ startRowOffset: new Int64(start), rows: [], columns }),
    });
  }
  const arrowBatches =
    slice.length === 0 ? [] : [new T.TSparkArrowBatch({ batch: arrow(slice), rowCount: new Int64(slice.length) })];
  return new T.TFetchResultsResp({
    status: ok(),
    hasMoreRows,
    results: new T.TRowSet({ startRowOffset: new Int64(start), rows: [], arrowBatches }),
  });
}
