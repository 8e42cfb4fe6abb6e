// Number formats of weights and KV cache, with their storage cost and the compute they use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

/// The dtypes of docs/formulas.md.
enum class DType { fp32, bf16, fp16, fp8, int8, int4, q8_0, q4_0, q4_k_m, nvfp4, mxfp4, fp8_block };

/// "bf16" -> DType::bf16; nullopt for an unknown name. Case-insensitive.
std::optional<DType> parse_dtype(std::string_view name) noexcept;
std::string_view to_string(DType dtype) noexcept;
/// Every dtype name, in the order of DType.
std::vector<std::string> dtype_names();

/// Bits stored per value, block scales and zero points included:
/// fp32 32, bf16/fp16 16, fp8 8 (per-tensor scale), int8 8 (per-channel scale), int4 4.25 (groups of
/// 128 with a 16-bit scale and a 16-bit zero point: GPTQ/AWQ), q8_0 8.5 and q4_0 4.5 (llama.cpp blocks
/// of 32 with a 16-bit scale), q4_k_m 4.84 (llama.cpp's mix of Q4_K and Q6_K tensors: the bits per
/// weight that llama.cpp's tools/quantize/README.md gives for Llama 2 7B), nvfp4 4.5 (E2M1 values, an
/// FP8 E4M3 scale per 16: NVIDIA's NVFP4), mxfp4 4.25 (E2M1 values, an E8M0 scale per 32: the OCP
/// microscaling format gpt-oss ships in), fp8_block 8.002 (FP8 with a 32-bit scale per 128 x 128 block:
/// DeepSeek-V3's weight_block_size [128, 128]).
double bits_per_value(DType dtype) noexcept;
inline double bytes_per_value(DType dtype) noexcept { return bits_per_value(dtype) / 8; }

/// The format the matrix units compute in, for weights of this dtype: fp8 weights compute in fp8 on
/// GPUs that have it; the integer and llama.cpp formats are weight-only quantization, dequantized to
/// fp16; the rest compute as stored (fp8_block in fp8; nvfp4 and mxfp4 in FP4, with FP4 activations, at
/// the FP4 peak of a GPU whose matrix units take that format, else dequantized: GpuSpec::peak_tflops).
DType compute_dtype(DType weights) noexcept;

}  // namespace roofline
