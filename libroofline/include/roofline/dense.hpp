// The article's model of a dense transformer from its parameter count.
//
// Weights are read once per step and shared by the whole batch; every sequence reads its own KV
// cache; compute is 2 FLOP per parameter per token; compute and memory overlap ideally.
#pragma once

#include "roofline/roofline.hpp"

namespace roofline {

/// A dense model described by its size alone.
struct DenseModel {
    double params_b = 0;          ///< parameters, billions (> 0)
    double bytes_per_param = 0;   ///< bytes per weight (> 0): 2 for BF16, 0.5 for int4
    double kv_kib_per_token = 0;  ///< KV cache per token, all layers, K and V, KiB (>= 0)
};

/// Bytes of the weights.
double weight_bytes(const DenseModel& model) noexcept;
/// Bytes of the KV cache of `batch` sequences of `ctx` tokens.
double kv_bytes(const DenseModel& model, double batch, double ctx) noexcept;
/// The work of one decode step: `batch` sequences, one new token each, `ctx` tokens of context each.
Work decode_work(const DenseModel& model, double batch, double ctx) noexcept;
/// The work of a prefill of `tokens` tokens: the weights are read once for all of them.
Work prefill_work(const DenseModel& model, double tokens) noexcept;

/// Result of a search for the critical batch.
struct CriticalBatch {
    bool reachable = false;  ///< false when KV reads grow at least as fast as compute with the batch
    double batch = 0;        ///< the smallest whole batch whose decode step is compute bound
};
/// The smallest whole batch whose decode step of `ctx` tokens of context is compute bound on `gpu`.
CriticalBatch critical_batch(const DenseModel& model, double ctx, const Gpu& gpu);

/// Result of fitting sequences into memory.
struct MemoryFit {
    bool weights_fit = false;  ///< false when weights and reserve alone exceed the memory
    double batch = 0;          ///< whole sequences of `ctx` tokens that fit beside the weights
};
/// How many sequences of `ctx` (> 0) tokens fit in `mem_gb` beside the weights and `reserve_gb`.
MemoryFit max_batch(const DenseModel& model, double mem_gb, double ctx, double reserve_gb) noexcept;

}  // namespace roofline
