// Reads aiconfigurator's measured-kernel databases (github.com/ai-dynamo/aiconfigurator, Apache-2.0: parquet files
// under aic-core/src/aiconfigurator_core/systems/data/<system>/<op>/<engine>/<version>/) from a git snapshot and writes
// compact CSV extracts to tests/data/kernels/: for each GPU system the catalog has, the newest version of each engine,
// the operator kinds below on grids that cover the catalog's models and formats, and SOURCES.csv (each file's commit,
// path, engine, version, device, license, rows). A one-off tool, not in CI (tests/data/kernels/README.md):
//
//   cd tools/kernels && npm install
//   node tools/kernels/extract-aiconfigurator.mjs SNAPSHOT_GIT_DIR [OUT_DIR] [--engine trtllm|sglang|vllm]
//
// Every engine by default (trtllm, sglang, vllm), NCCL's collectives once.
//
// SNAPSHOT_GIT_DIR: a clone or bare mirror of the repository (read with `git show HEAD:...`).
import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { execFileSync } from 'child_process'
import { mkdirSync, writeFileSync } from 'fs'
import { join } from 'path'

const args = process.argv.slice(2)
const engineAt = args.indexOf('--engine')
const engines = engineAt >= 0 ? [args.splice(engineAt, 2)[1]] : ['trtllm', 'sglang', 'vllm']
const [repo, out = 'tests/data/kernels'] = args
if (!repo) {
  console.error('usage: node extract-aiconfigurator.mjs SNAPSHOT_GIT_DIR [OUT_DIR] [--engine trtllm|sglang|vllm]')
  process.exit(2)
}
const ROOT = 'aic-core/src/aiconfigurator_core/systems/data'
const git = (...a) => execFileSync('git', ['-C', repo, ...a], { maxBuffer: 1 << 30 })
const commit = git('rev-parse', 'HEAD').toString().trim()

// aiconfigurator's system -> the catalog's GPU id (libroofline/catalog/gpus.json).
const SYSTEMS = {
  a100_sxm: 'a100-sxm-80gb', h100_sxm: 'h100-sxm', h200_sxm: 'h200', b200_sxm: 'b200', b300_sxm: 'b300',
  gb200: 'gb200', gb300: 'gb300', l40s: 'l40s', rtx_pro_6000_server: 'rtx-pro-6000',
}
const POW2 = new Set([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072])
const POW4 = new Set([1, 4, 16, 64, 256, 1024, 4096, 16384, 65536])  // a coarser grid where the table is large
// The tables kept, each with the rows kept (a grid over the measured ones) and the columns written.
const TABLES = {
  'gemm/gemm_perf': {
    keep: r => POW4.has(r.m) || r.m === 8 || r.m === 32 || r.m === 128,
    columns: ['gemm_dtype', 'm', 'n', 'k', 'latency'],
  },
  'moe/moe_perf': {
    keep: r => r.distribution === 'balanced' && POW4.has(r.num_tokens) && r.moe_tp_size <= 8,
    columns: ['moe_dtype', 'num_tokens', 'hidden_size', 'inter_size', 'topk', 'num_experts', 'moe_tp_size',
      'moe_ep_size', 'kernel_source', 'latency'],
  },
  'attention/generation_attention_perf': {
    keep: r => r.window_size === 0 && POW4.has((r.step + 1) / 2) && POW4.has(r.batch_size) &&
      [8, 32, 64, 128].includes(r.num_heads),
    columns: ['batch_size', 'step', 'num_heads', 'num_key_value_heads', 'head_dim', 'attn_dtype', 'kv_cache_dtype',
      'latency'],
  },
  'attention/context_attention_perf': {
    keep: r => (r.window_size ?? 0) === 0 && POW2.has(r.isl) && [8, 32, 64, 128].includes(r.num_heads),
    columns: ['batch_size', 'isl', 'num_heads', 'num_key_value_heads', 'head_dim', 'attn_dtype', 'kv_cache_dtype',
      'latency'],
  },
  'mla/generation_mla_perf': { keep: () => true, columns: null },
  'mla/context_mla_perf': { keep: () => true, columns: null },
  'comm/nccl_perf': { keep: () => true, columns: ['op_name', 'nccl_dtype', 'num_gpus', 'message_size', 'latency'] },
  // DeepSeek-V3.2's sparse attention (DSA) as one module of a layer: its projections, the indexer, the top-k and the
  // sparse MLA attention; prefill without a cached prefix, and decode. Fewer rows a file (cap): 36 files.
  'sparse_attention/dsa_context_module_perf': {
    keep: r => r.model === 'deepseek-ai/DeepSeek-V3.2' && r.step === 0,
    columns: ['op_name', 'kernel_source', 'kv_cache_dtype', 'gemm_type', 'num_heads', 'tp_size', 'batch_size', 'isl',
      'latency'],
    cap: 700,
  },
  'sparse_attention/dsa_generation_module_perf': {
    keep: r => r.model === 'deepseek-ai/DeepSeek-V3.2',
    columns: ['op_name', 'kernel_source', 'kv_cache_dtype', 'gemm_type', 'num_heads', 'tp_size', 'batch_size', 'isl',
      'step', 'latency'],
    cap: 700,
  },
  // Linear attention's kernels as the collectors run them (Qwen3.5's and Qwen3-Next's gated delta rule: the key
  // channels' causal convolution and the recurrence, chunked in prefill, one step in decode; Mamba-2's convolution:
  // the collector measures no scan). Prefill at prompts of powers of 4.
  'linear_attention/gdn_perf': {
    keep: r => r.phase === 'generation' || POW4.has(r.seq_len),
    columns: ['kernel_source', 'phase', 'batch_size', 'seq_len', 'd_model', 'num_k_heads', 'head_k_dim', 'num_v_heads',
      'head_v_dim', 'latency'],
    cap: 240,
  },
  'linear_attention/mamba2_perf': {
    keep: r => r.phase === 'generation' || POW4.has(r.seq_len),
    columns: ['kernel_source', 'phase', 'batch_size', 'seq_len', 'd_model', 'd_state', 'nheads', 'head_dim', 'n_groups',
      'latency'],
    cap: 120,
  },
  // MLA's absorbed batched multiplies in decode (per head: the queries' no-rope part into the latent, 128 -> 512,
  // before the attention; the latent output back to the value heads, 512 -> 128, after it).
  'mla_bmm/mla_bmm_perf': {
    keep: r => POW2.has(r.num_tokens) && POW2.has(r.num_heads),
    columns: ['op_name', 'kernel_source', 'bmm_dtype', 'num_tokens', 'num_heads', 'latency'],
    cap: 200,
  },
  // FP8 activation quantization with a static per-tensor scale: m x k 16-bit values read, m x k FP8 values written.
  // (The quantize folder's computescale_perf is left out: each collector logs the difference of a dynamic and a
  // static quantization's times, clamped at 0, not a kernel's time.)
  'quantize/scale_matrix_perf': {
    keep: r => POW4.has(r.m) && POW2.has(r.k),
    columns: ['kernel_source', 'quant_dtype', 'm', 'k', 'latency'],
    cap: 100,
  },
  // Each engine's own all-reduce (TensorRT-LLM's, SGLang's and vLLM's custom kernels for NVLink, NCCL past them).
  'comm/custom_allreduce_perf': {
    keep: () => true,
    columns: ['allreduce_dtype', 'num_gpus', 'message_size', 'implementation', 'kernel_source', 'latency'],
  },
}
const SKIP = new Set(['framework', 'version', 'device', 'op_name'])
const CAP = 3000

const version = v => v.split(/[^0-9]+/).filter(Boolean).map(Number)
const newer = (a, b) => {
  const x = version(a), y = version(b)
  for (let i = 0; i < Math.max(x.length, y.length); ++i) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) > (y[i] ?? -1)
  return a.length < b.length  // 1.3.0 after 1.3.0rc20
}
const ls = path => {
  try {  // a folder the snapshot does not have: no versions (git's complaint not shown)
    return execFileSync('git', ['-C', repo, 'ls-tree', '--name-only', `HEAD:${path}`], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString().split('\n').filter(Boolean)
  } catch { return [] }
}
const csvCell = v => {
  if (typeof v === 'bigint') v = Number(v)
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toPrecision(6)
  const s = String(v ?? '')
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}

const sources = [['file', 'gpu', 'system', 'engine', 'version', 'device', 'rows', 'grid_rows', 'commit', 'path', 'license']]
let bytes = 0
for (const [system, gpu] of Object.entries(SYSTEMS)) for (const engine of engines) {
  for (const [table, spec] of Object.entries(TABLES)) {
    const [op, name] = table.split('/')
    const eng = name === 'nccl_perf' ? 'nccl' : engine
    if (eng === 'nccl' && engine !== engines[0]) continue  // NCCL's, once
    // The newest version that measured the table itself: a version with a reuse.yaml takes most of its rows from an
    // earlier one (its own parquet holds only the shapes it added), so the newest without one.
    const all = ls(`${ROOT}/${system}/${op}/${eng}`).filter(v => ls(`${ROOT}/${system}/${op}/${eng}/${v}`).includes(`${name}.parquet`))
    const own = all.filter(v => !ls(`${ROOT}/${system}/${op}/${eng}/${v}`).includes('reuse.yaml'))
    const versions = own.length ? own : all
    if (!versions.length) continue
    const v = versions.reduce((a, b) => (newer(b, a) ? b : a))
    const path = `${ROOT}/${system}/${op}/${eng}/${v}/${name}.parquet`
    const buf = git('show', `HEAD:${path}`)
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
    const rows = await parquetReadObjects({ file, compressors })
    const grid = rows.map(r => Object.fromEntries(Object.entries(r).map(([k, x]) => [k, typeof x === 'bigint' ? Number(x) : x])))
      .filter(spec.keep)
    if (!grid.length) continue
    const columns = spec.columns ?? Object.keys(grid[0]).filter(k => !SKIP.has(k))
    // At most CAP rows a file (or the table's cap; the extracts stay small): the grid sorted by its shape columns, every
    // stride-th row.
    const key = r => columns.slice(0, -1).map(c => r[c])
    grid.sort((a, b) => {
      const x = key(a), y = key(b)
      for (let i = 0; i < x.length; ++i) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1
      return 0
    })
    const stride = Math.ceil(grid.length / (spec.cap ?? CAP))
    const kept = grid.filter((_, i) => i % stride === 0)
    const text = [columns.join(','), ...kept.map(r => columns.map(c => csvCell(r[c])).join(','))].join('\n') + '\n'
    mkdirSync(join(out, gpu), { recursive: true })
    const rel = `${gpu}/${name.replace('_perf', '')}-${eng}.csv`
    writeFileSync(join(out, rel), text)
    bytes += text.length
    sources.push([rel, gpu, system, eng, v, String(rows[0]?.device ?? ''), String(kept.length), String(grid.length), commit,
      path, 'Apache-2.0'].map(csvCell))
    console.error(`${rel}: ${kept.length} of ${grid.length} rows of the grid, ${rows.length} measured (${eng} ${v})`)
  }
}
writeFileSync(join(out, 'SOURCES.csv'), sources.map(r => r.join(',')).join('\n') + '\n')
console.error(`${(bytes / 1e6).toFixed(1)} MB in ${sources.length - 1} files`)
