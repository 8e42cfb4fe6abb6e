#include "roofline/dtype.hpp"

#include <array>

#include "ascii.hpp"

namespace roofline {
namespace {

struct Info {
    DType dtype;
    std::string_view name;
    double bits;
    DType compute;
};

constexpr std::array kDTypes{
    Info{DType::fp32, "fp32", 32, DType::fp32},
    Info{DType::bf16, "bf16", 16, DType::bf16},
    Info{DType::fp16, "fp16", 16, DType::fp16},
    Info{DType::fp8, "fp8", 8, DType::fp8},
    Info{DType::int8, "int8", 8, DType::fp16},
    Info{DType::int4, "int4", 4.25, DType::fp16},
    Info{DType::q8_0, "q8_0", 8.5, DType::fp16},
    Info{DType::q4_0, "q4_0", 4.5, DType::fp16},
    Info{DType::q4_k_m, "q4_k_m", 4.84, DType::fp16},
    Info{DType::nvfp4, "nvfp4", 4.5, DType::nvfp4},
    Info{DType::mxfp4, "mxfp4", 4.25, DType::mxfp4},
    Info{DType::fp8_block, "fp8_block", 8 + 32.0 / (128 * 128), DType::fp8},
};

const Info& info(DType d) noexcept { return kDTypes[static_cast<std::size_t>(d)]; }

}  // namespace

std::optional<DType> parse_dtype(std::string_view name) noexcept {
    for (const Info& i : kDTypes)
        if (ascii::equals_lowered(i.name, name)) return i.dtype;
    return std::nullopt;
}

std::string_view to_string(DType dtype) noexcept { return info(dtype).name; }
std::vector<std::string> dtype_names() {
    std::vector<std::string> names;
    for (const Info& i : kDTypes) names.emplace_back(i.name);
    return names;
}
double bits_per_value(DType dtype) noexcept { return info(dtype).bits; }
DType compute_dtype(DType weights) noexcept { return info(weights).compute; }

}  // namespace roofline
