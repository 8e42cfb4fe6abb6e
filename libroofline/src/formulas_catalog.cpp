// The formulas of the group "Catalog and model-aware estimates" (the catalog, the operator model: catalog.hpp,
// operators.hpp), and the resolution of a formula's text arguments that every model-aware formula shares
// (formula_args.hpp).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/defaults.hpp"
#include "roofline/dtype.hpp"
#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"
#include "roofline/operators.hpp"
#include "roofline/per_thread.hpp"
#include "roofline/power.hpp"
#include "roofline/units.hpp"

#include "ascii.hpp"
#include "config_text.hpp"
#include "formula_args.hpp"
#include "formula_table.hpp"

namespace roofline {

namespace formula_args {

using namespace formula_table;

/// An id that names nothing: the error of the argument, its reason worded by nearest.hpp (suggestion included).
[[noreturn]] void unknown_id(const FormulaSpec& f, const char* arg, std::string reason) {
    throw Error::of_argument(Status::unknown_id, f.name, arg, std::move(reason));
}

/// An id of a short closed list: "no <kind> '<id>' (<a, b, c>); did you mean ...?"
[[noreturn]] void unknown_choice(const FormulaSpec& f, const char* arg, std::string_view kind, std::string_view id,
                                 const std::vector<std::string>& known) {
    unknown_id(f, arg, roofline::unknown_choice(kind, id, known));
}

/// The model of the argument `arg` ("model", "draft_model"), not copied: the catalog's entry of that id, or
/// where the text is a config.json (its first non-space character '{') the model read from it, cached
/// (config_text.hpp). A config text is never looked up as an id, an id never read as JSON.
std::shared_ptr<const ModelSpec> model_entry_of(const FormulaSpec& f, std::string_view id, const char* arg) {
    if (config_text::is_config(id)) {
        try {
            return config_text::model(id, arg);
        } catch (const Error& e) {  // the importer's error, which names its argument but no formula
            if (!e.where().empty()) throw;
            throw Error::of_argument(e.status(), f.name, e.argument(), e.reason());
        }
    }
    if (auto m = model_entry(id)) return m;
    unknown_id(f, arg, unknown_catalog_id("model", id, model_ids()));
}

/// The same, copied.
ModelSpec model_of(const FormulaSpec& f, std::string_view id, const char* arg) {
    return *model_entry_of(f, id, arg);
}

/// The draft of ROOFLINE_SPEC_STEP_MS's draft_model "mtp": the model's MTP layers, or why there are none.
ModelSpec mtp_draft_of(const FormulaSpec& f, const ModelSpec& target) {
    if (!(target.mtp_layers > 0))
        throw Error::of_argument(Status::invalid_argument, f.name, "draft_model",
                                 fmt::format("'mtp': '{}' has no multi-token-prediction layers (config.json's "
                                             "num_nextn_predict_layers or mtp_num_hidden_layers)", target.id));
    return mtp_draft(target);
}

GpuSpec gpu_of(const FormulaSpec& f, std::string_view id, const char* arg) {
    if (auto g = find_gpu(id)) return *g;
    unknown_id(f, arg, unknown_catalog_id("GPU", id, gpu_ids()));
}

/// An optional text argument: empty means its default from the table (every host's "left out").
std::string_view or_default(const FormulaSpec& f, const char* arg, std::string_view text) {
    if (!text.empty()) return text;
    const ArgSpec& a = arg_named(f, arg);
    return a.optional && a.default_text ? std::string_view(a.default_text) : text;
}

DType dtype_of(const FormulaSpec& f, const char* arg, std::string_view name) {
    name = or_default(f, arg, name);
    if (auto d = parse_dtype(name)) return *d;
    std::vector<std::string> known = dtype_names();
    if (std::string_view(arg) == "weight_dtype") known.insert(known.begin(), "native");
    unknown_choice(f, arg, "dtype", name, known);
}

const Profile& profile_of(const FormulaSpec& f, std::string_view name, const char* arg) {
    name = or_default(f, arg, name);
    const Profile* p = nullptr;
    try {
        p = find_profile(name);
    } catch (const Error& e) {  // a malformed profile text: the error names its parameter, but no formula
        if (!e.where().empty()) throw;
        throw Error::of_argument(e.status(), f.name, arg, e.reason());
    }
    if (p) return *p;
    unknown_choice(f, arg, "profile", name, profile_names());
}


namespace {

/// The catalog's entry of a GPU, not copied; where there is none, gpu_of() says why.
std::shared_ptr<const GpuSpec> gpu_entry_of(const FormulaSpec& f, std::string_view id) {
    if (auto g = gpu_entry(id)) return g;
    return std::make_shared<const GpuSpec>(gpu_of(f, id));
}

}  // namespace

/// Refuses a layout that cannot hold the model (operators.hpp, layout_problem), naming its argument.
void check_layout(const FormulaSpec& f, const ModelSpec& m, double tp, const Layout& layout) {
    if (layout.trivial()) {
        if (tp == 1 ? m.heads != std::floor(m.heads) : std::fmod(m.heads, tp) != 0)  // fmod(h, 1): h's fraction
            out_of_domain(f, arg_named(f, "tp"), tp, fmt::format("a divisor of the model's {} attention heads", m.heads));
        return;
    }
    const std::string problem = layout_problem(m, tp, layout);
    if (problem.empty()) return;
    const std::size_t colon = problem.find(": ");
    throw Error::of_argument(Status::invalid_argument, f.name, arg_named(f, problem.substr(0, colon)).name,
                             problem.substr(colon + 2));
}

namespace {

/// What deployed() resolved last on the calling thread, and from what. A spreadsheet's cells, and a sweep from
/// C, pass the same model, GPU and formats call after call; resolving them (the catalog's lookups, the formats'
/// names, the layout's checks) was a third of a STEP_MS call. A hit needs the same formula (whose defaults fill
/// left-out texts), the same texts, tp and layout, and a catalog that no host changed since
/// (catalog_generation()). Only successes are kept: a refused call resolves again, and says why, every time.
struct LastDeployed {
    const FormulaSpec* f = nullptr;
    std::string model, gpu, weight_dtype, kv_dtype;
    double tp = 0;
    Layout layout;
    std::uint64_t generation = 0;
    std::optional<Deployed> deployed;

    bool holds(const FormulaSpec& f_, std::string_view model_, std::string_view gpu_, std::string_view weight_dtype_,
               std::string_view kv_dtype_, double tp_, const Layout& layout_) const noexcept {
        return deployed && f == &f_ && tp == tp_ && layout.ep == layout_.ep && layout.dp_attention == layout_.dp_attention &&
               layout.pp == layout_.pp && model == model_ && gpu == gpu_ && weight_dtype == weight_dtype_ &&
               kv_dtype == kv_dtype_ && generation == catalog_generation();
    }
};

Deployed resolve_deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu,
                            std::string_view weight_dtype, std::string_view kv_dtype, double tp, const Layout& layout);

}  // namespace

/// The model on the GPU in these dtypes over `tp` GPUs in that layout, every text argument resolved and checked.
Deployed deployed(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                  std::string_view kv_dtype, double tp, const Layout& layout) {
    LastDeployed& last = per_thread<LastDeployed, LastDeployed>();
    if (last.holds(f, model, gpu, weight_dtype, kv_dtype, tp, layout)) return *last.deployed;
    const std::uint64_t generation = catalog_generation();  // before the lookups: a change during them misses next time
    Deployed d = resolve_deployment(f, model, gpu, weight_dtype, kv_dtype, tp, layout);
    last.deployed.reset();
    last.f = &f;
    last.model.assign(model);
    last.gpu.assign(gpu);
    last.weight_dtype.assign(weight_dtype);
    last.kv_dtype.assign(kv_dtype);
    last.tp = tp;
    last.layout = layout;
    last.generation = generation;
    last.deployed.emplace(d);
    return d;
}

namespace {

Deployed resolve_deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu,
                            std::string_view weight_dtype, std::string_view kv_dtype, double tp, const Layout& layout) {
    auto m = model_entry_of(f, model);
    auto g = gpu_entry_of(f, gpu);
    // An empty format is the argument's default (or_default): kv_dtype 16 bits, whatever the weights' format.
    // "native": the checkpoint's own formats, per module (the default).
    // A published checkpoint's id (a ROOFLINE_PLAN row's "checkpoint", 0.14): its formats.
    const std::string_view format = ascii::trimmed(or_default(f, "weight_dtype", weight_dtype));
    const bool native = ascii::iequals(format, "native");
    const std::optional<DType> one = native ? std::nullopt : parse_dtype(format);
    std::optional<Checkpoint> checkpoint;
    if (!native && !one) {
        const std::vector<Checkpoint> published = m->published();
        for (const Checkpoint& c : published)
            if (ascii::iequals(c.id, format)) checkpoint = c;
        if (!checkpoint) {
            std::vector<std::string> known{"native"};
            for (const Checkpoint& c : published) known.push_back(c.id);
            for (const std::string& d : dtype_names()) known.push_back(d);
            unknown_choice(f, "weight_dtype", "dtype or checkpoint", or_default(f, "weight_dtype", weight_dtype), known);
        }
    }
    const DType weights = native ? m->native_linear : checkpoint ? checkpoint->linear : *one;
    const DType kv = dtype_of(f, "kv_dtype", kv_dtype);
    check_layout(f, *m, tp, layout);
    if (tp > 1 && !(g->interconnect_tbs > 0))
        out_of_domain(f, arg_named(f, "tp"), tp, fmt::format("1: the catalog has no interconnect bandwidth for '{}'", g->id));
    if (tp > g->scaleup_gpus && !(g->scaleout_tbs > 0))
        out_of_domain(f, arg_named(f, "tp"), tp,
                      fmt::format("at most {}, the scale-up domain of '{}': the catalog has no network bandwidth for it",
                                  g->scaleup_gpus, g->id));
    DeploymentRef ref = native ? DeploymentRef::native(*m, *g, kv, tp) : DeploymentRef{*m, *g, weights, kv, tp};
    if (checkpoint) {
        ref.experts = checkpoint->experts;
        ref.embedding = checkpoint->embedding;
    }
    ref.layout = layout;
    return {std::move(m), std::move(g), ref};
}

}  // namespace

/// The same as a Deployment of its own (copies of the entries), for what keeps one.
Deployment deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                      std::string_view kv_dtype, double tp, const Layout& layout) {
    const Deployed d = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, layout);
    Deployment out{d.ref.model, d.ref.gpu, d.ref.weights, d.ref.kv, d.ref.tp};
    out.experts = d.ref.experts;
    out.embedding = d.ref.embedding;
    out.layout = layout;
    return out;
}

/// The operator list of the calling thread's formula calls: its memory is reused from call to call.
void check_window(const FormulaSpec& f, const ModelSpec& m, double tokens, const char* arg, std::string_view what) {
    if (m.context_window > 0 && tokens > m.context_window) [[unlikely]]
        throw Error::of_argument(Status::invalid_argument, f.name, arg,
                                 fmt::format("{} tokens of context ({}) exceed the window of '{}', {} tokens (its "
                                             "config.json's max_position_embeddings, or rope_scaling where it extends "
                                             "them)",
                                             tokens, what, m.id, m.context_window));
}

void check_window(const FormulaSpec& f, const ModelSpec& m, double prompt_tokens, double output_tokens) {
    check_window(f, m, prompt_tokens, "prompt_tokens", "the prompt");
    check_window(f, m, prompt_tokens + output_tokens, "output_tokens", "prompt and answer");
}

std::vector<Operator>& operator_scratch() {
    struct Scratch;
    return per_thread<Scratch, std::vector<Operator>>();
}

}  // namespace formula_args

namespace formula {

using namespace formula_table;
using namespace formula_args;

namespace {

/// A column of ids, no header.
Table column(const FormulaSpec& f, const std::vector<std::string>& ids) {
    Rows t(f, Rows::Header::none);
    for (const auto& id : ids) t.text(id).end_row();
    return std::move(t).done();
}

/// The operators of a step as a table: a header row, then one row per operator (overhead included). Its bytes are
/// those the profile times (timed_bytes(): a sparse prefill's gathers where it counts them).
Table breakdown(const FormulaSpec& f, std::vector<Operator>& ops, const GpuSpec& gpu, const Profile& profile) {
    finite(f, estimate(ops, gpu, profile));
    const Profile& timing = profile.for_vendor(gpu.vendor);
    Rows t(f);
    for (const Operator& op : ops)
        t.text(std::string(op.name))
            .number(op.flops)
            .number(timed_bytes(op, timing) + op.link_bytes)
            .number(op.ms)
            .text(std::string(to_string(op.bound)))
            .end_row();
    return std::move(t).done();
}

}  // namespace

Table gpus() { return column(spec_of<&gpus>(), gpu_ids()); }
Table models() { return column(spec_of<&models>(), model_ids()); }

double gpu(std::string_view gpu, std::string_view field) {
    const auto& f = spec_of<&formula::gpu>();
    const GpuSpec g = gpu_of(f, gpu);
    const auto v = gpu_field(g, field);
    if (!v) unknown_choice(f, "field", "field of the GPU catalog", field, gpu_field_names());
    if (!(*v > 0))
        throw Error::of_call(Status::no_solution, f.name, "field",
                             fmt::format("the catalog has no {} for '{}' (the GPU lacks it, or it is not published)",
                                         field, g.id));
    return finite(f, *v);
}

double model(std::string_view model, std::string_view field) {
    const auto& f = spec_of<&formula::model>();
    const ModelSpec m = model_of(f, model);
    const auto v = model_field(m, field);
    if (!v) unknown_choice(f, "field", "field of the model catalog", field, model_field_names());
    return finite(f, *v);
}

std::string model_config(std::string_view model) {
    const auto& f = spec_of<&formula::model_config>();
    const std::shared_ptr<const ModelSpec> m = model_entry_of(f, model, "model");
    if (!m->config)  // every model of the catalog, a folder or a host is read from a config text
        throw Error::of_call(Status::internal, f.name, "model", fmt::format("'{}' keeps no config text", m->id));
    return *m->config;
}

namespace {

/// A step of a formula (ROOFLINE_STEP_MS, ROOFLINE_TTFT_MS and the formulas over them): the deployment, its operators
/// (the calling thread's scratch) and its time under the profile, ms.
struct Step {
    Deployed d;
    std::vector<Operator>& ops;
    double ms;
};

/// The decode step of `batch` sequences at `ctx` tokens of context.
Step decode_step(const FormulaSpec& f, std::string_view model, std::string_view gpu, double batch, double ctx,
                 std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile,
                 const Layout& layout) {
    Deployed d = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, layout);
    check_window(f, *d.model, ctx, "ctx", "each sequence's");
    auto& ops = operator_scratch();
    decode_operators(d.ref, batch, ctx, ops);
    const double ms = estimate(ops, *d.gpu, profile_of(f, profile));
    return {std::move(d), ops, ms};
}

/// The prefill of `batch` prompts of `prompt_tokens` tokens; it writes a 16-bit KV cache, whatever the weights' format.
Step prefill_step(const FormulaSpec& f, std::string_view model, std::string_view gpu, double prompt_tokens,
                  double batch, std::string_view weight_dtype, double tp, std::string_view profile,
                  const Layout& layout) {
    Deployed d = deployed(f, model, gpu, weight_dtype, defaults::kv_dtype, tp, layout);
    check_window(f, *d.model, prompt_tokens, "prompt_tokens", "the prompt");
    auto& ops = operator_scratch();
    prefill_operators(d.ref, batch, prompt_tokens, ops);
    const double ms = estimate(ops, *d.gpu, profile_of(f, profile));
    return {std::move(d), ops, ms};
}

/// The energy of a step on the replica's tp GPUs, J: one GPU's (power.hpp) times tp.
double replica_energy_j(const FormulaSpec& f, const Step& step, double tp) {
    if (!(step.d.gpu->power_w > 0))
        throw Error::of_argument(Status::no_solution, f.name, "gpu",
                                 fmt::format("the catalog has no board power (power_w) for '{}'", step.d.gpu->id));
    return step_energy(step.ops, *step.d.gpu, finite(f, step.ms)).joules * tp;
}

}  // namespace

double step_ms(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
               std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_ms>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    return finite(f, decode_step(f, model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, {ep, dp_attention, pp}).ms);
}

double step_toks(std::string_view model, std::string_view gpu, double batch, double ctx,
                 std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_toks>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const double ms = decode_step(f, model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, {ep, dp_attention, pp}).ms;
    return finite(f, batch / units::seconds_from_ms(finite(f, ms)));
}

double ttft_ms(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
               std::string_view weight_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&ttft_ms>({model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, ep, dp_attention, pp});
    return finite(f, prefill_step(f, model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, {ep, dp_attention, pp}).ms);
}

double energy_j(std::string_view model, std::string_view gpu, double batch, double ctx, std::string_view weight_dtype,
                std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&energy_j>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Step step = decode_step(f, model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, {ep, dp_attention, pp});
    return finite(f, replica_energy_j(f, step, tp) / batch);
}

double prefill_energy_j(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
                        std::string_view weight_dtype, double tp, std::string_view profile, double ep,
                        double dp_attention, double pp) {
    const auto& f =
        checked<&prefill_energy_j>({model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, ep, dp_attention, pp});
    const Step step = prefill_step(f, model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, {ep, dp_attention, pp});
    return finite(f, replica_energy_j(f, step, tp) / (batch * prompt_tokens));
}

double fit_batch(std::string_view model, std::string_view gpu, double ctx, std::string_view weight_dtype,
                 std::string_view kv_dtype, double tp, double mem_util, double ep, double dp_attention, double pp) {
    const auto& f = checked<&fit_batch>({model, gpu, ctx, weight_dtype, kv_dtype, tp, mem_util, ep, dp_attention, pp});
    const Deployed deployment = deployed(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    const DeploymentRef& d = deployment.ref;
    check_window(f, d.model, ctx, "ctx", "each sequence's");
    const double usable = mem_util * memory_bytes(d.gpu);
    const double weights = weight_bytes_per_gpu(d);
    if (weights >= usable)
        throw Error::of_call(Status::no_solution, f.name, "model",
                             fmt::format("the weights ({:.3g} GB per GPU) do not fit in {} of the {} GB of a '{}'",
                                         units::gb_from_bytes(weights), mem_util, memory_gb(d.gpu),
                                         d.gpu.id));
    return finite(f, std::floor((usable - weights) / kv_bytes_per_sequence_per_gpu(d, ctx) * (1 + 1e-12)));
}

double cache_gb(std::string_view model, double batch, double ctx, std::string_view kv_dtype, double tp, double ep, double dp_attention, double pp) {
    const auto& f = checked<&cache_gb>({model, batch, ctx, kv_dtype, tp, ep, dp_attention, pp});
    const auto m = model_entry_of(f, model);
    check_window(f, *m, ctx, "ctx", "each sequence's");
    const Layout layout{ep, dp_attention, pp};
    check_layout(f, *m, tp, layout);
    static const GpuSpec no_gpu{};  // the cache does not depend on the GPU
    DeploymentRef d{*m, no_gpu, DType::bf16, dtype_of(f, "kv_dtype", kv_dtype), tp};
    d.layout = layout;
    return finite(f, batch * units::gb_from_bytes(kv_bytes_per_sequence_per_gpu(d, ctx)));
}

Table step_breakdown(std::string_view model, std::string_view gpu, double batch, double ctx,
                     std::string_view weight_dtype, std::string_view kv_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&step_breakdown>({model, gpu, batch, ctx, weight_dtype, kv_dtype, tp, profile, ep, dp_attention, pp});
    const Deployment d = deployment(f, model, gpu, weight_dtype, kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, ctx, "ctx", "each sequence's");
    auto ops = decode_operators(d, batch, ctx);
    return breakdown(f, ops, d.gpu, profile_of(f, profile));
}

Table ttft_breakdown(std::string_view model, std::string_view gpu, double prompt_tokens, double batch,
                     std::string_view weight_dtype, double tp, std::string_view profile, double ep, double dp_attention, double pp) {
    const auto& f = checked<&ttft_breakdown>({model, gpu, prompt_tokens, batch, weight_dtype, tp, profile, ep, dp_attention, pp});
    // As ROOFLINE_TTFT_MS: the prefill writes a 16-bit KV cache.
    const Deployment d = deployment(f, model, gpu, weight_dtype, defaults::kv_dtype, tp, {ep, dp_attention, pp});
    check_window(f, d.model, prompt_tokens, "prompt_tokens", "the prompt");
    auto ops = prefill_operators(d, batch, prompt_tokens);
    return breakdown(f, ops, d.gpu, profile_of(f, profile));
}

}  // namespace formula
}  // namespace roofline
