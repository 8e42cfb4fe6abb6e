// libFuzzer target: the Hugging Face config.json importer and the catalog loader, with any text. An
// import either fails with a message or gives a model that every estimate takes without crashing and
// without a non-finite result.
#include <roofline.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (roofline_model_import_hf_config("fuzzed", text.c_str()) == ROOFLINE_OK) {
        double v = 0;
        for (double batch : {1.0, 64.0}) {
            if (roofline_step_ms("fuzzed", "h100-sxm", batch, 4096, "bf16", "", 1, "typical", &v) == ROOFLINE_OK &&
                !std::isfinite(v))
                std::abort();
            if (roofline_ttft_ms("fuzzed", "h100-sxm", 512, batch, "int4", 1, "bound", &v) == ROOFLINE_OK && !std::isfinite(v))
                std::abort();
        }
        if (roofline_fit_batch("fuzzed", "h100-sxm", 4096, "bf16", "", 1, 0.9, &v) == ROOFLINE_OK && !std::isfinite(v))
            std::abort();
        if (roofline_model("fuzzed", "params_b", &v) == ROOFLINE_OK && !std::isfinite(v)) std::abort();
        // The checkpoint's formats, per module, and the cache of every layer kind.
        if (roofline_step_ms("fuzzed", "h100-sxm", 8, 100000, "native", "", 1, "bound", &v) == ROOFLINE_OK &&
            !std::isfinite(v))
            std::abort();
        for (double ctx : {0.0, 1.0, 8193.0, 1e6})
            if (roofline_cache_gb("fuzzed", 4, ctx, "", 1, &v) == ROOFLINE_OK && !(std::isfinite(v) && v >= 0))
                std::abort();
        if (roofline_slo_batch("fuzzed", "h200", 9000, 50, "native", "", 1, "typical", 0.9, &v) == ROOFLINE_OK &&
            !std::isfinite(v))
            std::abort();
    } else if (roofline_errmsg()[0] == '\0') {
        std::abort();
    }
    size_t added = 0;
    if (roofline_catalog_add_json(text.c_str(), &added) != ROOFLINE_OK && roofline_errmsg()[0] == '\0') std::abort();
    return 0;
}
