// Decodes one parquet file to JSON rows on standard output, for the side-by-side tool's stand-in for pyarrow
// (tools/kernels/side-by-side/pyarrow/parquet.py). A one-off tool, not in CI; needs `npm install` here first.
//
//   node tools/kernels/decode-parquet.mjs FILE.parquet > rows.json
//
// 64-bit integers become numbers (aiconfigurator's tables hold shapes and latencies, far below 2^53).
import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { readFileSync } from 'fs'

const [path] = process.argv.slice(2)
if (!path) {
  console.error('usage: node decode-parquet.mjs FILE.parquet')
  process.exit(2)
}
const bytes = readFileSync(path)
const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
const rows = await parquetReadObjects({ file, compressors })
process.stdout.write(JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? Number(v) : v)))
