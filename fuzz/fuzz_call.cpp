// libFuzzer target: roofline_call() with any name and any mix of numbers and texts, and the typed
// function of the same formula with the same numbers. Aborts on a crash (the sanitizers' job), on a
// non-finite result, on a failure without a message, and on the two entry points disagreeing.
#include <roofline.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

extern "C" {
#include "support/typed_calls.h"
}

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

const typed_call* typed(const char* name) {
    for (unsigned i = 0; i < typed_call_count; ++i)
        if (std::strcmp(typed_calls[i].name, name) == 0) return &typed_calls[i];
    return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider in(data, size);
    std::string name;
    const roofline_formula_info* info = nullptr;
    if (in.ConsumeBool()) {
        name = in.ConsumeRandomLengthString(40);  // any text: unknown names, case, garbage
    } else {
        info = roofline_formula_at(in.ConsumeIntegralInRange<size_t>(0, roofline_formula_count() - 1));
        name = info->name;
    }
    std::vector<std::string> texts;
    std::vector<roofline_value> args;
    texts.reserve(16);  // no reallocation: args keep pointers into it
    static const char* const ids[] = {"llama-3-8b", "deepseek-v3", "mixtral-8x7b", "gemma-2-9b", "h100-sxm",
                                      "rtx-4090", "bf16", "q4_k_m", "fp8", "", "typical", "bound", "layers", "hbm_tbs",
                                      // model arguments that are config.json texts: a good one, a refused one
                                      R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, )"
                                      R"("num_attention_heads": 32, "num_key_value_heads": 8, )"
                                      R"("intermediate_size": 14336, "vocab_size": 128256})",
                                      R"( {"model_type": "llama", "hidden_size": 1})"};
    const size_t n = in.ConsumeIntegralInRange<size_t>(0, 12);
    for (size_t i = 0; i < n; ++i) {
        switch (in.ConsumeIntegralInRange<int>(0, 4)) {
            case 4:
                texts.push_back(ids[in.ConsumeIntegralInRange<size_t>(0, sizeof ids / sizeof ids[0] - 1)]);
                args.push_back({0, texts.back().c_str()});
                break;
            case 0: args.push_back({in.ConsumeFloatingPoint<double>(), nullptr}); break;
            case 1: args.push_back({static_cast<double>(in.ConsumeIntegralInRange<int>(-3, 5000)), nullptr}); break;
            case 2: args.push_back({in.ConsumeProbability<double>() * 1e4, nullptr}); break;
            default:
                texts.push_back(in.ConsumeRandomLengthString(16));
                args.push_back({0, texts.back().c_str()});
        }
    }
    roofline_array* r = nullptr;
    const int st = roofline_call(name.c_str(), args.data(), args.size(), &r);
    if (st == ROOFLINE_OK) {
        require(r != nullptr && roofline_array_rows(r) > 0 && roofline_array_cols(r) > 0);
        for (size_t i = 0; i < roofline_array_rows(r); ++i)
            for (size_t j = 0; j < roofline_array_cols(r); ++j)
                require(roofline_array_is_text(r, i, j) ? roofline_array_text(r, i, j) != nullptr
                                                        : std::isfinite(roofline_array_number(r, i, j)));
    } else {
        require(r == nullptr && roofline_errmsg()[0] != '\0');
    }

    // With every argument of the right type, the typed function must agree.
    bool typed_ok = info && args.size() == info->arg_count;
    for (size_t i = 0; typed_ok && i < args.size(); ++i)
        typed_ok = (args[i].text != nullptr) ==
                   (info->args[i]->type == ROOFLINE_TYPE_TEXT || info->args[i]->type == ROOFLINE_TYPE_TABLE);
    if (typed_ok) {
        std::vector<roofline_value> a = args;
        a.resize(16);
        union {
            double number;
            const char* text;
            roofline_array* array;
        } out{};
        const int st2 = typed(info->name)->call(a.data(), &out);
        require(st2 == st);
        if (st == ROOFLINE_OK) {
            if (info->result_type == ROOFLINE_TYPE_NUMBER) require(out.number == roofline_array_number(r, 0, 0));
            else if (info->result_type == ROOFLINE_TYPE_TEXT) require(std::strcmp(out.text, roofline_array_text(r, 0, 0)) == 0);
            else require(roofline_array_rows(out.array) == roofline_array_rows(r));
            if (info->result_type == ROOFLINE_TYPE_ARRAY) roofline_array_free(out.array);
        }
    }
    roofline_array_free(r);
    (void)roofline_formula_find(name.c_str());
    return 0;
}
