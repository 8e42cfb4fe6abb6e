// fit-kernels: fits the kernel models (roofline/kernels.hpp) on the measured kernels of tests/data/kernels and writes
// libroofline/catalog/kernels.json (committed, embedded into the library at build time).
//
//   build/tools/fit-kernels tests/data/kernels libroofline/catalog/kernels.json [--no-folds]
//
// A matrix multiply's model per engine (trtllm, sglang, vllm: their kernels differ by up to 2x on one shape), GPU
// architecture (GpuSpec::architecture) and format, on that engine's GEMM rows of that architecture's GPUs at once; a
// collective's per architecture, kind and number of GPUs on NCCL's rows; a MoE layer's per architecture and format on
// TensorRT-LLM's MoE rows (SGLang's and vLLM's are set apart: kernels.json "not_fitted"). The fit minimises the sum of |log(predicted / measured)| (kernels.cpp). Its errors:
// the median absolute percentage error on the rows, and with shapes left out: the multiplies' distinct weight shapes
// (n, k) in 10 folds, each fold's rows predicted by a fit on the other nine (a shape a model never saw: every m of it);
// the collectives' sizes likewise. --no-folds leaves the folds out (the test that refits the committed file).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "measurements.hpp"
#include "roofline/catalog.hpp"
#include "roofline/kernels.hpp"

using namespace roofline;

namespace {

constexpr int kFolds = 10;

/// aiconfigurator's gemm_dtype names of the formats the catalog has a peak for (weight-only ones left out).
const std::map<std::string, DType> kGemmFormats = {
    {"bfloat16", DType::bf16}, {"fp8", DType::fp8}, {"fp8_block", DType::fp8_block}, {"nvfp4", DType::nvfp4}};
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

/// The MoE rows fitted: TensorRT-LLM's (its CUTLASS and DeepGEMM kernels, and the MXFP4 weights of 16-bit
/// activations on GPUs without FP4 units), by aiconfigurator's moe_dtype.
constexpr const char* kMoeEngine = "trtllm";
const std::map<std::string, DType> kMoeFormats = {{"bfloat16", DType::bf16},
                                                  {"fp8", DType::fp8},
                                                  {"fp8_block", DType::fp8_block},
                                                  {"nvfp4", DType::nvfp4},
                                                  {"w4a16_mxfp4", DType::mxfp4}};
constexpr const char* kMoeSetApart =
    "SGLang's and vLLM's MoE rows run up to 2x faster than TensorRT-LLM's on the same shape and beyond the memory "
    "bandwidth for the weights their columns say they read (a DeepSeek-shaped FP8-block layer of 64 tokens on H100: "
    "1.91-1.99 ms, 5.9 TB/s of 3.35): their collectors must execute less than their columns say; set apart until that "
    "is found (docs/accuracy.md, 'Measured kernels')";

const std::map<std::string, Collective> kCollectives = {{"all_reduce", Collective::all_reduce},
                                                        {"all_gather", Collective::all_gather},
                                                        {"reduce_scatter", Collective::reduce_scatter},
                                                        {"alltoall", Collective::alltoall}};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double four_digits(double x) {
    return x == 0 ? 0 : std::stod(fmt::format("{:.4g}", x));
}

struct GemmGroup {
    std::string engine, architecture;
    DType format;
    std::set<std::string> gpus;
    std::vector<GemmSample> rows;
    GemmKernel fitted;
    double mdape = 0, folds = -1;
};

struct MoeGroup {
    std::string engine, architecture;
    DType format;
    std::set<std::string> gpus;
    std::vector<MoeSample> rows;
    MoeKernel fitted;
    double mdape = 0, folds = -1;
};

struct AttentionGroup {
    std::string engine, architecture;
    bool prefill;
    DType kv;
    std::set<std::string> gpus;
    std::vector<AttentionSample> rows;
    AttentionKernel fitted;
    double mdape = 0, folds = -1;
};

struct CollectiveGroup {
    std::string architecture;
    Collective op;
    double gpus;
    std::set<std::string> gpu_ids;
    std::vector<CollectiveSample> rows;
    CollectiveKernel fitted;
    double mdape = 0, folds = -1;
};

void fit_gemm(GemmGroup& g, bool folds) {
    std::vector<double> p = parameters_of(fit_gemm_kernel(g.rows));
    for (double& x : p) x = four_digits(x);
    g.fitted = gemm_kernel_of(p);
    g.mdape = gemm_mdape_percent(g.rows, g.fitted);
    if (!folds) return;
    std::set<std::pair<double, double>> shapes;
    for (const GemmSample& s : g.rows) shapes.insert({s.shape.n, s.shape.k});
    std::map<std::pair<double, double>, int> fold;
    int i = 0;
    for (const auto& s : shapes) fold[s] = i++ % kFolds;
    std::vector<double> errors;
    for (int f = 0; f < kFolds; ++f) {
        std::vector<GemmSample> train, test;
        for (const GemmSample& s : g.rows) (fold[{s.shape.n, s.shape.k}] == f ? test : train).push_back(s);
        if (test.empty()) continue;
        const GemmKernel k = fit_gemm_kernel(train);
        for (const GemmSample& s : test)
            errors.push_back(std::abs(gemm_kernel_ms(s.shape, *s.gpu, k, true) / s.measured_ms - 1) * 100);
    }
    g.folds = median(std::move(errors));
}

void fit_moe(MoeGroup& g, bool folds) {
    std::vector<double> p = parameters_of(fit_moe_kernel(g.rows));
    for (double& x : p) x = four_digits(x);
    g.fitted = moe_kernel_of(p);
    g.mdape = moe_mdape_percent(g.rows, g.fitted);
    if (!folds) return;
    // A model's layer shape (hidden, inter, top-k, experts) left out: every token count and layout of it.
    using Shape = std::tuple<double, double, double, double>;
    auto shape_of = [](const MoeSample& s) { return Shape{s.shape.hidden, s.shape.inter, s.shape.topk, s.shape.experts}; };
    std::set<Shape> shapes;
    for (const MoeSample& s : g.rows) shapes.insert(shape_of(s));
    std::map<Shape, int> fold;
    int i = 0;
    for (const auto& s : shapes) fold[s] = i++ % kFolds;
    std::vector<double> errors;
    for (int f = 0; f < kFolds; ++f) {
        std::vector<MoeSample> train, test;
        for (const MoeSample& s : g.rows) (fold[shape_of(s)] == f ? test : train).push_back(s);
        if (test.empty() || train.empty()) continue;
        const MoeKernel k = fit_moe_kernel(train);
        for (const MoeSample& s : test) errors.push_back(std::abs(moe_kernel_ms(s.shape, *s.gpu, k) / s.measured_ms - 1) * 100);
    }
    g.folds = median(std::move(errors));
}

void fit_attention(AttentionGroup& g, bool folds) {
    std::vector<double> p = parameters_of(fit_attention_kernel(g.rows));
    for (double& x : p) x = four_digits(x);
    g.fitted = attention_kernel_of(p);
    g.mdape = attention_mdape_percent(g.rows, g.fitted);
    if (!folds) return;
    // A model's heads (query heads, key-value heads, head size) left out: every batch and context of them.
    using Shape = std::tuple<double, double, double>;
    auto shape_of = [](const AttentionSample& s) { return Shape{s.shape.heads, s.shape.kv_heads, s.shape.head_dim}; };
    std::set<Shape> shapes;
    for (const AttentionSample& s : g.rows) shapes.insert(shape_of(s));
    std::map<Shape, int> fold;
    int i = 0;
    for (const auto& s : shapes) fold[s] = i++ % kFolds;
    std::vector<double> errors;
    for (int f = 0; f < kFolds; ++f) {
        std::vector<AttentionSample> train, test;
        for (const AttentionSample& s : g.rows) (fold[shape_of(s)] == f ? test : train).push_back(s);
        if (test.empty() || train.empty()) continue;
        const AttentionKernel k = fit_attention_kernel(train);
        for (const AttentionSample& s : test)
            errors.push_back(std::abs(attention_kernel_ms(s.shape, *s.gpu, k) / s.measured_ms - 1) * 100);
    }
    g.folds = median(std::move(errors));
}

void fit_collective(CollectiveGroup& g, bool folds) {
    const CollectiveKernel k = fit_collective_kernel(g.rows);
    g.fitted = {four_digits(k.bus_efficiency), four_digits(k.latency_us)};
    g.mdape = collective_mdape_percent(g.rows, g.fitted);
    if (!folds) return;
    std::set<double> sizes;
    for (const CollectiveSample& s : g.rows) sizes.insert(s.bytes);
    std::map<double, int> fold;
    int i = 0;
    for (double s : sizes) fold[s] = i++ % kFolds;
    std::vector<double> errors;
    for (int f = 0; f < kFolds; ++f) {
        std::vector<CollectiveSample> train, test;
        for (const CollectiveSample& s : g.rows) (fold[s.bytes] == f ? test : train).push_back(s);
        if (test.empty() || train.empty()) continue;
        const CollectiveKernel t = fit_collective_kernel(train);
        for (const CollectiveSample& s : test)
            errors.push_back(std::abs(collective_kernel_ms(s.op, s.gpus, s.bytes, *s.gpu, t) / s.measured_ms - 1) * 100);
    }
    g.folds = median(std::move(errors));
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

nlohmann::ordered_json errors_json(const GemmGroup& g) {
    nlohmann::ordered_json e;
    e["fitted"] = std::round(g.mdape * 10) / 10;
    if (g.folds >= 0) e["shapes_left_out"] = std::round(g.folds * 10) / 10;
    return e;
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::cerr << "usage: fit-kernels KERNELS_DIR KERNELS.json [--no-folds]\n";
        return 2;
    }
    const std::string dir = argv[1], out = argv[2];
    const bool folds = !(argc > 3 && std::string(argv[3]) == "--no-folds");
    std::vector<GpuSpec> gpus;  // every GPU with kernel data, kept for the samples' pointers
    std::vector<measurements::Row> sources = measurements::read(dir + "/SOURCES.csv");
    for (const measurements::Row& s : sources) {
        const auto g = find_gpu(s["gpu"]);
        if (!g) throw std::runtime_error("SOURCES.csv: no GPU " + s["gpu"] + " in the catalog");
        if (std::none_of(gpus.begin(), gpus.end(), [&](const GpuSpec& x) { return x.id == g->id; })) gpus.push_back(*g);
    }
    gpus.reserve(gpus.size());
    auto gpu_of = [&](const std::string& id) {
        return &*std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& x) { return x.id == id; });
    };
    std::map<std::tuple<std::string, std::string, DType>, GemmGroup> gemm;
    std::map<std::tuple<std::string, std::string, DType>, MoeGroup> moe;
    std::map<std::tuple<std::string, std::string, bool, DType>, AttentionGroup> attention;
    std::map<std::tuple<std::string, Collective, double>, CollectiveGroup> collectives;
    std::string commit;
    for (const measurements::Row& s : sources) {
        commit = s["commit"];
        const GpuSpec* gpu = gpu_of(s["gpu"]);
        const std::string& file = s["file"];
        if (file.find("/gemm-") != std::string::npos) {
            for (const measurements::Row& r : measurements::read(dir + "/" + file)) {
                const auto f = kGemmFormats.find(r["gemm_dtype"]);
                if (f == kGemmFormats.end()) continue;
                if (std::any_of(std::begin(kNotFitted), std::end(kNotFitted),
                                [&](const Left& l) { return s["engine"] == l.engine && f->second == l.format; }))
                    continue;
                GemmGroup& g = gemm[{s["engine"], gpu->architecture, f->second}];
                g.engine = s["engine"];
                g.architecture = gpu->architecture;
                g.format = f->second;
                g.gpus.insert(gpu->id);
                g.rows.push_back({{r.number("m"), r.number("n"), r.number("k"), f->second}, gpu, r.number("latency")});
            }
        } else if (file.find("/moe-") != std::string::npos && s["engine"] == kMoeEngine) {
            for (const measurements::Row& r : measurements::read(dir + "/" + file)) {
                const std::string& kernel = r["kernel_source"];
                if (kernel.find("min_latency") != std::string::npos) continue;  // a path for few tokens, not the default
                const auto f = kMoeFormats.find(r["moe_dtype"]);
                if (f == kMoeFormats.end()) continue;
                // 16-bit activations with MXFP4 weights: dequantized where the GPU has no FP4 units (Hopper's gpt-oss)
                if (f->second == DType::mxfp4 && gpu->fp4 > 0) continue;
                MoeGroup& g = moe[{s["engine"], gpu->architecture, f->second}];
                g.engine = s["engine"];
                g.architecture = gpu->architecture;
                g.format = f->second;
                g.gpus.insert(gpu->id);
                MoeShape shape{r.number("num_tokens"), r.number("hidden_size"), r.number("inter_size"), r.number("topk"),
                               r.number("num_experts"), r.number("moe_tp_size"), r.number("moe_ep_size"),
                               kernel.find("nongated") == std::string::npos, f->second};
                g.rows.push_back({shape, gpu, r.number("latency")});
            }
        } else if (file.find("/generation_attention-") != std::string::npos ||
                   file.find("/context_attention-") != std::string::npos) {
            const bool prefill = file.find("/context_attention-") != std::string::npos;
            for (const measurements::Row& r : measurements::read(dir + "/" + file)) {
                const auto kv = kGemmFormats.find(r["kv_cache_dtype"]);
                if (kv == kGemmFormats.end()) continue;
                AttentionGroup& g = attention[{s["engine"], gpu->architecture, prefill, kv->second}];
                g.engine = s["engine"];
                g.architecture = gpu->architecture;
                g.prefill = prefill;
                g.kv = kv->second;
                g.gpus.insert(gpu->id);
                const AttentionShape shape{r.number("batch_size"), r.number(prefill ? "isl" : "step"),
                                           r.number("num_heads"), r.number("num_key_value_heads"),
                                           r.number("head_dim"), kv->second, prefill};
                g.rows.push_back({shape, gpu, r.number("latency")});
            }
        } else if (file.find("/nccl-") != std::string::npos) {
            for (const measurements::Row& r : measurements::read(dir + "/" + file)) {
                const auto op = kCollectives.find(r["op_name"]);
                if (op == kCollectives.end()) continue;
                const double gpus_n = r.number("num_gpus");
                // message_size counts elements (aiconfigurator's collector: nccl-tests' bytes / bytes per element).
                const double bytes = r.number("message_size") * (r["nccl_dtype"] == "half" ? 2 : 1);
                CollectiveGroup& g = collectives[{gpu->architecture, op->second, gpus_n}];
                g.architecture = gpu->architecture;
                g.op = op->second;
                g.gpus = gpus_n;
                g.gpu_ids.insert(gpu->id);
                g.rows.push_back({op->second, gpus_n, bytes, gpu, r.number("latency")});
            }
        }
    }
    std::vector<GemmGroup*> gemm_groups;
    for (auto& [key, g] : gemm) gemm_groups.push_back(&g);
    std::vector<MoeGroup*> moe_groups;
    for (auto& [key, g] : moe) moe_groups.push_back(&g);
    std::vector<AttentionGroup*> attention_groups;
    for (auto& [key, g] : attention) attention_groups.push_back(&g);
    std::vector<CollectiveGroup*> collective_groups;
    for (auto& [key, g] : collectives) collective_groups.push_back(&g);
    in_parallel(gemm_groups, [&](GemmGroup* g) { fit_gemm(*g, folds); });
    in_parallel(moe_groups, [&](MoeGroup* g) { fit_moe(*g, folds); });
    in_parallel(attention_groups, [&](AttentionGroup* g) { fit_attention(*g, folds); });
    in_parallel(collective_groups, [&](CollectiveGroup* g) { fit_collective(*g, folds); });

    nlohmann::ordered_json j;
    j["about"] =
        "Kernel models (libroofline/include/roofline/kernels.hpp) fitted by tools/fit-kernels (scripts/fit-kernels) on "
        "tests/data/kernels: aiconfigurator's measured kernels (github.com/ai-dynamo/aiconfigurator, Apache-2.0), "
        "gemm: per engine, GPU architecture (gpus.json 'architecture') and format, on that engine's GEMM rows of that "
        "architecture's GPUs; collectives: per architecture, collective and number of GPUs, on NCCL's rows; "
        "not_fitted: rows left out, with the reason. Each fit minimises the "
        "sum of |log(predicted / measured)|; its errors are median absolute percentage errors on its rows ('fitted') "
        "and in 10-fold cross-validation over the distinct weight shapes (n, k) of the multiplies or the sizes of "
        "the collectives ('shapes_left_out': each fold predicted by a fit that never saw its shapes). "
        "docs/accuracy.md, 'Kernels', discusses them.";
    j["source"] = fmt::format("tests/data/kernels (SOURCES.csv): ai-dynamo/aiconfigurator@{}", commit);
    j["units"] = {{"half_rows", "rows (tokens)"},
                  {"half_columns", "columns (output features of one GPU)"},
                  {"half_columns_memory", "columns (output features of one GPU)"},
                  {"latency_us", "µs"},
                  {"efficiencies", "fractions of the catalog's peak, bandwidth or interconnect bandwidth"}};
    j["gemm"] = nlohmann::ordered_json::array();
    for (const GemmGroup* g : gemm_groups) {
        nlohmann::ordered_json e;
        e["engine"] = g->engine;
        e["architecture"] = g->architecture;
        e["format"] = std::string(to_string(g->format));
        e["gpus"] = g->gpus;
        e["rows"] = g->rows.size();
        nlohmann::ordered_json f;
        const std::vector<double> p = parameters_of(g->fitted);
        for (std::size_t i = 0; i < p.size(); ++i) f[std::string(kGemmParameters[i].json)] = p[i];
        e["fitted"] = f;
        e["mdape_percent"] = errors_json(*g);
        j["gemm"].push_back(e);
        std::cout << fmt::format("gemm {:<7} {:<18} {:<9} rows {:>5}  fitted {:5.1f}%  shapes left out {:5.1f}%\n",
                                 g->engine, g->architecture, to_string(g->format), g->rows.size(), g->mdape, g->folds);
    }
    j["moe"] = nlohmann::ordered_json::array();
    for (const MoeGroup* g : moe_groups) {
        nlohmann::ordered_json e;
        e["engine"] = g->engine;
        e["architecture"] = g->architecture;
        e["format"] = std::string(to_string(g->format));
        e["gpus"] = g->gpus;
        e["rows"] = g->rows.size();
        nlohmann::ordered_json f;
        const std::vector<double> p = parameters_of(g->fitted);
        for (std::size_t i = 0; i < p.size(); ++i) f[std::string(kMoeParameters[i].json)] = p[i];
        e["fitted"] = f;
        nlohmann::ordered_json err;
        err["fitted"] = std::round(g->mdape * 10) / 10;
        if (g->folds >= 0) err["shapes_left_out"] = std::round(g->folds * 10) / 10;
        e["mdape_percent"] = err;
        j["moe"].push_back(e);
        std::cout << fmt::format("moe  {:<7} {:<18} {:<9} rows {:>5}  fitted {:5.1f}%  shapes left out {:5.1f}%\n",
                                 g->engine, g->architecture, to_string(g->format), g->rows.size(), g->mdape, g->folds);
    }
    j["attention"] = nlohmann::ordered_json::array();
    for (const AttentionGroup* g : attention_groups) {
        nlohmann::ordered_json e;
        e["engine"] = g->engine;
        e["architecture"] = g->architecture;
        e["phase"] = g->prefill ? "prefill" : "decode";
        e["kv"] = std::string(to_string(g->kv));
        e["gpus"] = g->gpus;
        e["rows"] = g->rows.size();
        nlohmann::ordered_json f;
        const std::vector<double> p = parameters_of(g->fitted);
        for (std::size_t i = 0; i < p.size(); ++i) f[std::string(kAttentionParameters[i].json)] = p[i];
        e["fitted"] = f;
        nlohmann::ordered_json err;
        err["fitted"] = std::round(g->mdape * 10) / 10;
        if (g->folds >= 0) err["shapes_left_out"] = std::round(g->folds * 10) / 10;
        e["mdape_percent"] = err;
        j["attention"].push_back(e);
        std::cout << fmt::format("attn {:<7} {:<18} {:<7} kv {:<5} rows {:>5}  fitted {:5.1f}%  shapes left out {:5.1f}%\n",
                                 g->engine, g->architecture, g->prefill ? "prefill" : "decode", to_string(g->kv),
                                 g->rows.size(), g->mdape, g->folds);
    }
    j["not_fitted"] = nlohmann::ordered_json::array();
    for (const Left& l : kNotFitted)
        j["not_fitted"].push_back(
            {{"kind", "gemm"}, {"engine", l.engine}, {"format", std::string(to_string(l.format))}, {"why", l.reason}});
    j["not_fitted"].push_back({{"kind", "moe"}, {"engine", "sglang, vllm"}, {"why", kMoeSetApart}});
    j["collectives"] = nlohmann::ordered_json::array();
    for (const CollectiveGroup* g : collective_groups) {
        nlohmann::ordered_json e;
        e["architecture"] = g->architecture;
        e["op"] = std::string(to_string(g->op));
        e["gpus"] = g->gpus;
        e["measured_on"] = g->gpu_ids;
        e["rows"] = g->rows.size();
        e["fitted"] = {{"bus_efficiency", g->fitted.bus_efficiency}, {"latency_us", g->fitted.latency_us}};
        nlohmann::ordered_json err;
        err["fitted"] = std::round(g->mdape * 10) / 10;
        if (g->folds >= 0) err["shapes_left_out"] = std::round(g->folds * 10) / 10;
        e["mdape_percent"] = err;
        j["collectives"].push_back(e);
        std::cout << fmt::format("{:<14} {:<18} {} GPUs  rows {:>4}  fitted {:5.1f}%  sizes left out {:5.1f}%\n",
                                 to_string(g->op), g->architecture, g->gpus, g->rows.size(), g->mdape, g->folds);
    }
    std::ofstream(out) << j.dump(2) << "\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "fit-kernels: " << e.what() << "\n";
    return 1;
}
