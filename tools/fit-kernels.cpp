// fit-kernels: fits the kernel models (roofline/kernels.hpp) on the measured kernels of tests/data/kernels and writes
// libroofline/catalog/kernels.json (committed, embedded into the library at build time).
//
//   build/tools/fit-kernels tests/data/kernels libroofline/catalog/kernels.json [--no-folds]
//
// A matrix multiply's model per engine (trtllm, sglang, vllm: their kernels differ by up to 2x on one shape), GPU
// architecture (GpuSpec::architecture) and format, on that engine's GEMM rows of that architecture's GPUs at once; a
// collective's per architecture, kind and number of GPUs on NCCL's rows; a MoE layer's per architecture and format on
// TensorRT-LLM's MoE rows (SGLang's and vLLM's are set apart: kernels.json "not_fitted"); attention's per engine,
// architecture, phase and KV format, and DeepSeek's MLA attention's the same way (the same model on mla_shape()).
// The fit minimises the sum of |log(predicted / measured)| (kernels.cpp). Its
// errors: the median absolute percentage error on the rows, and with shapes left out in 10 folds (fold_key below),
// each fold's rows predicted by a fit on the other nine. --no-folds leaves the folds out (the test that refits the
// committed file).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <iostream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "kernel_rows.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/kernels.hpp"

using namespace roofline;

namespace {

constexpr int kFolds = 10;

/// Measurements the model cannot describe, left out with the reason (kernels.json "not_fitted"; docs/accuracy.md).
struct Left {
    const char* engine;
    DType format;
    const char* reason;
};
constexpr Left kNotFitted[] = {
    {"vllm", DType::fp8_block,
     "vLLM's block-scaled FP8 rows take 57-157 us at one row whatever k (0.157 ms at n 7168, k 32 on H200, where "
     "TensorRT-LLM's kernel takes 6 us at k 1024): the collector timed more than the kernel (the call outside a CUDA "
     "graph); no kernel model with a latency within 50 us describes them (68-70% median error)"},
};

double four_digits(double x) {
    return x == 0 ? 0 : std::stod(fmt::format("{:.4g}", x));
}

/// The samples of one model (one engine, architecture and format, ...), its fit and its errors. `id` holds the fields
/// that name it in kernels.json, in their order; `gpus` the GPUs its rows were measured on.
template <class Sample, class Kernel>
struct Group {
    nlohmann::ordered_json id;
    std::set<std::string> gpus;
    std::vector<Sample> rows;
    Kernel fitted{};
    double mdape = 0, folds = -1;
};
using GemmGroup = Group<GemmSample, GemmKernel>;
using MoeGroup = Group<MoeSample, MoeKernel>;
using AttentionGroup = Group<AttentionSample, AttentionKernel>;
using CollectiveGroup = Group<CollectiveSample, CollectiveKernel>;

// Each kind's fit, error, parameters and the shape its folds leave out (a shape a model never saw: every token count,
// batch or context of it).
GemmKernel fit_of(const std::vector<GemmSample>& r) { return fit_gemm_kernel(r); }
MoeKernel fit_of(const std::vector<MoeSample>& r) { return fit_moe_kernel(r); }
AttentionKernel fit_of(const std::vector<AttentionSample>& r) { return fit_attention_kernel(r); }
CollectiveKernel fit_of(const std::vector<CollectiveSample>& r) { return fit_collective_kernel(r); }
double mdape_of(const std::vector<GemmSample>& r, const GemmKernel& k) { return gemm_mdape_percent(r, k); }
double mdape_of(const std::vector<MoeSample>& r, const MoeKernel& k) { return moe_mdape_percent(r, k); }
double mdape_of(const std::vector<AttentionSample>& r, const AttentionKernel& k) { return attention_mdape_percent(r, k); }
double mdape_of(const std::vector<CollectiveSample>& r, const CollectiveKernel& k) {
    return collective_mdape_percent(r, k);
}
std::span<const KernelParameter> table_of(const GemmKernel&) { return kGemmParameters; }
std::span<const KernelParameter> table_of(const MoeKernel&) { return kMoeParameters; }
std::span<const KernelParameter> table_of(const AttentionKernel&) { return kAttentionParameters; }
std::span<const KernelParameter> table_of(const CollectiveKernel&) { return kCollectiveParameters; }
GemmKernel with_parameters(const GemmKernel&, const std::vector<double>& v) { return gemm_kernel_of(v); }
MoeKernel with_parameters(const MoeKernel&, const std::vector<double>& v) { return moe_kernel_of(v); }
AttentionKernel with_parameters(const AttentionKernel&, const std::vector<double>& v) { return attention_kernel_of(v); }
CollectiveKernel with_parameters(const CollectiveKernel&, const std::vector<double>& v) { return collective_kernel_of(v); }
/// The multiplies' weight shape (n, k); a MoE layer's (hidden, inter, top-k, experts); attention's heads (query,
/// key-value, head size); a collective's size.
std::vector<double> fold_key(const GemmSample& s) { return {s.shape.n, s.shape.k}; }
std::vector<double> fold_key(const MoeSample& s) { return {s.shape.hidden, s.shape.inter, s.shape.topk, s.shape.experts}; }
std::vector<double> fold_key(const AttentionSample& s) { return {s.shape.heads, s.shape.kv_heads, s.shape.head_dim}; }
std::vector<double> fold_key(const CollectiveSample& s) { return {s.bytes}; }

/// Fits a group (its parameters to 4 significant digits, as kernels.json keeps them, so that its error is the
/// library's), and with `folds` its error in 10 folds over its shapes.
template <class Sample, class Kernel>
void fit_group(Group<Sample, Kernel>& g, bool folds) {
    std::vector<double> p = parameters_of(fit_of(g.rows));
    for (double& x : p) x = four_digits(x);
    g.fitted = with_parameters(Kernel{}, p);
    g.mdape = mdape_of(g.rows, g.fitted);
    if (!folds) return;
    std::map<std::vector<double>, int> fold;
    for (const Sample& s : g.rows) fold.emplace(fold_key(s), 0);
    int i = 0;
    for (auto& [shape, f] : fold) f = i++ % kFolds;
    std::vector<double> errors;
    for (int f = 0; f < kFolds; ++f) {
        std::vector<Sample> train, test;
        for (const Sample& s : g.rows) (fold[fold_key(s)] == f ? test : train).push_back(s);
        if (test.empty() || train.empty()) continue;
        const Kernel k = fit_of(train);
        for (const Sample& s : test) {
            const std::vector<Sample> one{s};
            errors.push_back(mdape_of(one, k));
        }
    }
    g.folds = median(std::move(errors));
}

/// A group as kernels.json keeps it: its id, the GPUs (`gpus_key`), its rows, parameters and errors.
template <class Sample, class Kernel>
nlohmann::ordered_json json_of(const Group<Sample, Kernel>& g, const char* gpus_key) {
    nlohmann::ordered_json e = g.id;
    e[gpus_key] = g.gpus;
    e["rows"] = g.rows.size();
    const std::vector<double> p = parameters_of(g.fitted);
    const std::span<const KernelParameter> table = table_of(g.fitted);
    nlohmann::ordered_json f;
    for (std::size_t i = 0; i < p.size(); ++i) f[std::string(table[i].json)] = p[i];
    e["fitted"] = f;
    nlohmann::ordered_json err;
    err["fitted"] = std::round(g.mdape * 10) / 10;
    if (g.folds >= 0) err["shapes_left_out"] = std::round(g.folds * 10) / 10;
    e["mdape_percent"] = err;
    std::string name;
    for (const auto& field : g.id.items()) {
        const auto& value = field.value();
        name += (name.empty() ? "" : " ") + (value.is_string() ? value.template get<std::string>() : value.dump());
    }
    // A parameter at an end of its range (but a lower end that leaves its term out): the model missing something there
    // (docs/accuracy.md, "Kernels").
    std::string at_limit;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const KernelParameter& t = table[i];
        const double near = 1e-3 * (t.hi - t.lo);
        if ((p[i] <= t.lo + near && !t.lo_leaves_out) || p[i] >= t.hi - near)
            at_limit += fmt::format(" {}={:g}", t.json, p[i]);
    }
    std::cout << fmt::format("{:<45} rows {:>5}  fitted {:5.1f}%  shapes left out {:5.1f}%{}\n", name, g.rows.size(),
                             g.mdape, g.folds, at_limit.empty() ? "" : "  at a limit:" + at_limit);
    return e;
}

/// Runs `work` on every item, on the machine's cores.
template <class T, class F>
void in_parallel(std::vector<T>& items, F work) {
    const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::future<void>> running;
    std::size_t next = 0;
    std::mutex m;
    for (std::size_t t = 0; t < threads; ++t)
        running.push_back(std::async(std::launch::async, [&] {
            for (;;) {
                std::size_t i;
                {
                    std::lock_guard<std::mutex> lock(m);
                    if (next == items.size()) return;
                    i = next++;
                }
                work(items[i]);
            }
        }));
    for (auto& r : running) r.get();
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::cerr << "usage: fit-kernels KERNELS_DIR KERNELS.json [--no-folds]\n";
        return 2;
    }
    const std::string dir = argv[1], out = argv[2];
    const bool folds = !(argc > 3 && std::string(argv[3]) == "--no-folds");
    const kernel_rows::Rows rows(dir);
    std::map<std::tuple<std::string, std::string, DType>, GemmGroup> gemm;
    std::map<std::tuple<std::string, std::string, DType>, MoeGroup> moe;
    std::map<std::tuple<std::string, std::string, bool, DType>, AttentionGroup> attention, mla;
    std::map<std::tuple<std::string, Collective, double>, CollectiveGroup> collectives;
    for (const auto& [engine, s] : rows.gemm) {
        const DType f = s.shape.format;
        if (std::any_of(std::begin(kNotFitted), std::end(kNotFitted),
                        [&](const Left& l) { return engine == l.engine && f == l.format; }))
            continue;
        GemmGroup& g = gemm[{engine, s.gpu->architecture, f}];
        g.id = {{"engine", engine}, {"architecture", s.gpu->architecture}, {"format", to_string(f)}};
        g.gpus.insert(s.gpu->id);
        g.rows.push_back(s);
    }
    for (const auto& [engine, s] : rows.moe) {
        MoeGroup& g = moe[{engine, s.gpu->architecture, s.shape.format}];
        g.id = {{"engine", engine}, {"architecture", s.gpu->architecture}, {"format", to_string(s.shape.format)}};
        g.gpus.insert(s.gpu->id);
        g.rows.push_back(s);
    }
    for (const auto& [from, to] : {std::pair{&rows.attention, &attention}, std::pair{&rows.mla, &mla}})
        for (const auto& [engine, s] : *from) {
            AttentionGroup& g = (*to)[{engine, s.gpu->architecture, s.shape.prefill, s.shape.kv}];
            g.id = {{"engine", engine},
                    {"architecture", s.gpu->architecture},
                    {"phase", s.shape.prefill ? "prefill" : "decode"},
                    {"kv", to_string(s.shape.kv)}};
            g.gpus.insert(s.gpu->id);
            g.rows.push_back(s);
        }
    for (const auto& [engine, s] : rows.collectives) {
        CollectiveGroup& g = collectives[{s.gpu->architecture, s.op, s.gpus}];
        g.id = {{"architecture", s.gpu->architecture}, {"op", to_string(s.op)}, {"gpus", s.gpus}};
        g.gpus.insert(s.gpu->id);
        g.rows.push_back(s);
    }
    const std::string& commit = rows.commit;
    // Every group fitted on the machine's cores, then written in the order of the maps' keys.
    std::vector<std::function<void()>> fits;
    auto add = [&](auto& groups) {
        for (auto& entry : groups) fits.push_back([&g = entry.second, folds] { fit_group(g, folds); });
    };
    add(gemm), add(moe), add(attention), add(mla), add(collectives);
    in_parallel(fits, [](const std::function<void()>& fit) { fit(); });

    nlohmann::ordered_json j;
    j["about"] =
        "Kernel models (libroofline/include/roofline/kernels.hpp) fitted by tools/fit-kernels (scripts/fit-kernels) on "
        "tests/data/kernels: aiconfigurator's measured kernels (github.com/ai-dynamo/aiconfigurator, Apache-2.0). "
        "gemm: per engine, GPU architecture (gpus.json 'architecture') and format, on that engine's GEMM rows of that "
        "architecture's GPUs; moe: TensorRT-LLM's fused MoE layers per architecture and format; attention: per engine, "
        "architecture, phase and KV cache format; mla: DeepSeek's latent attention (kernels.hpp, mla_shape()) the same way; collectives: NCCL's per architecture, collective and number of GPUs; "
        "moe_layer: not fitted, the median over an architecture's GPUs and engines of what a MoE layer of one token "
        "takes beyond a dense MLP's two multiplies of one row, µs (kernels.hpp, moe_layer_us()); "
        "attention_compute: not fitted, each architecture's median rate of long prefills' attention (16,384 tokens "
        "or more, every engine) over the datacenter Hopper and Blackwell GPUs' (kernels.hpp, "
        "attention_compute_ratio()); "
        "not_fitted: rows left out, with the reason; targets_percent: issue #44's targets for each kind's median "
        "error with shapes left out; summary: each kind's models, those within its target and the median of their "
        "errors with shapes left out (as stated, to 0.1%; docs/accuracy.md's summary and bench/kernel-accuracy.cpp "
        "print it; not written without the folds). "
        "Each fit minimises the sum of |log(predicted / measured)|; its "
        "errors are median absolute percentage errors on its rows ('fitted') and in 10-fold cross-validation over its "
        "shapes: the multiplies' weight shapes (n, k), the MoE layers' (hidden, inter, top-k, experts), attention's "
        "heads, the collectives' sizes ('shapes_left_out': each fold predicted by a fit that never saw its shapes). "
        "docs/accuracy.md, 'Kernels', discusses them.";
    j["source"] = fmt::format("tests/data/kernels (SOURCES.csv): ai-dynamo/aiconfigurator@{}", commit);
    // Each fitted parameter's unit, from the parameters' tables (kernels.hpp).
    j["units"] = nlohmann::ordered_json::object();
    for (const std::span<const KernelParameter> table : {std::span<const KernelParameter>(kGemmParameters),
                                                         std::span<const KernelParameter>(kMoeParameters),
                                                         std::span<const KernelParameter>(kAttentionParameters),
                                                         std::span<const KernelParameter>(kCollectiveParameters)})
        for (const KernelParameter& p : table) {
            auto& unit = j["units"][std::string(p.json)];
            if (!unit.is_null() && unit != p.unit)
                throw std::logic_error(fmt::format("kernels.hpp: {} has two units", p.json));
            unit = std::string(p.unit);
        }
    j["targets_percent"] = nlohmann::ordered_json::object();
    for (const KernelTarget& t : kKernelTargets) j["targets_percent"][std::string(t.kind)] = t.percent;
    if (folds) j["summary"] = nlohmann::ordered_json::object();  // filled below, once every kind is written
    auto write = [&](const char* kind, const auto& groups, const char* gpus_key) {
        j[kind] = nlohmann::ordered_json::array();
        for (const auto& [key, g] : groups) j[kind].push_back(json_of(g, gpus_key));
    };
    write("gemm", gemm, "gpus");
    write("moe", moe, "gpus");
    write("attention", attention, "gpus");
    write("mla", mla, "gpus");
    j["not_fitted"] = nlohmann::ordered_json::array();
    for (const Left& l : kNotFitted)
        j["not_fitted"].push_back(
            {{"kind", "gemm"}, {"engine", l.engine}, {"format", std::string(to_string(l.format))}, {"why", l.reason}});
    j["not_fitted"].push_back({{"kind", "moe"}, {"engine", "sglang, vllm"}, {"why", kernel_rows::kMoeSetApart}});
    j["not_fitted"].push_back({{"kind", "attention"}, {"engine", "trtllm"}, {"gpu", kernel_rows::kAttentionSetApartGpu},
                               {"phase", "decode"}, {"why", kernel_rows::kAttentionSetApart}});
    write("collectives", collectives, "measured_on");
    // Each kind's errors with shapes left out as stated above (to 0.1%) against its target: the one count of them.
    if (folds)
        for (const KernelTarget& t : kKernelTargets) {
            const std::string kind(t.kind);
            std::vector<double> errors;
            for (const auto& m : j[kind]) errors.push_back(m["mdape_percent"]["shapes_left_out"].get<double>());
            const auto within = std::count_if(errors.begin(), errors.end(), [&](double e) { return e <= t.percent; });
            j["summary"][kind] = {{"models", errors.size()},
                                  {"within_target", within},
                                  {"median_shapes_left_out", std::round(median(std::move(errors)) * 100) / 100}};
        }
    // Not a fit: the median of measured differences (kernel_rows.hpp, moe_layer_latencies()), per architecture.
    j["moe_layer"] = nlohmann::ordered_json::array();
    for (const kernel_rows::MoeLayerLatency& l : kernel_rows::moe_layer_latencies(rows))
        j["moe_layer"].push_back({{"architecture", l.architecture},
                                  {"us", std::round(l.us * 100) / 100},
                                  {"pairs", l.pairs},
                                  {"measured_on", l.gpus}});
    // Not a fit: each architecture's long prefills' attention rate over the datacenter GPUs' (kernel_rows.hpp,
    // attention_compute_rates()).
    j["attention_compute"] = nlohmann::ordered_json::array();
    for (const kernel_rows::AttentionComputeRate& a : kernel_rows::attention_compute_rates(rows))
        j["attention_compute"].push_back({{"architecture", a.architecture},
                                          {"ratio", std::round(a.ratio * 1e4) / 1e4},
                                          {"rate", std::round(a.rate * 1e4) / 1e4},
                                          {"rows", a.rows},
                                          {"measured_on", a.gpus}});
    std::ofstream(out) << j.dump(2) << "\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "fit-kernels: " << e.what() << "\n";
    return 1;
}
