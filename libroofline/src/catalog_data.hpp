// The catalog files, embedded at build time (catalog_data.cpp is generated from libroofline/catalog/).
#pragma once

namespace roofline::detail {
extern const char* const kGpusJson;
extern const char* const kModelsJson;
extern const char* const kProfilesJson;
extern const char* const kKernelsJson;
extern const char* const kPowerJson;
}  // namespace roofline::detail
