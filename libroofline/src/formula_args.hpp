// A formula's text arguments resolved against the catalog, as every model-aware formula takes them (models, GPUs,
// formats, profiles, deployments), each refusal naming the formula and its argument. Private to the core: declared
// once here for the groups of formulas, defined in formulas_catalog.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"

namespace roofline::formula_args {

/// An id that names nothing: the error of the argument, its reason worded by nearest.hpp (suggestion included).
[[noreturn]] void unknown_id(const FormulaSpec& f, const char* arg, std::string reason);

/// An id of a short closed list: "no <kind> '<id>' (<a, b, c>); did you mean ...?"
[[noreturn]] void unknown_choice(const FormulaSpec& f, const char* arg, std::string_view kind, std::string_view id,
                                 const std::vector<std::string>& known);

/// The model of the argument `arg` ("model", "draft_model"), not copied: the catalog's entry of that id, or
/// where the text is a config.json (its first non-space character '{') the model read from it, cached
/// (config_text.hpp). A config text is never looked up as an id, an id never read as JSON.
std::shared_ptr<const ModelSpec> model_entry_of(const FormulaSpec& f, std::string_view id, const char* arg = "model");

/// The same, copied.
ModelSpec model_of(const FormulaSpec& f, std::string_view id, const char* arg = "model");

/// The draft of ROOFLINE_SPEC_STEP_MS's draft_model "mtp": the model's MTP layers, or why there are none.
ModelSpec mtp_draft_of(const FormulaSpec& f, const ModelSpec& target);

GpuSpec gpu_of(const FormulaSpec& f, std::string_view id, const char* arg = "gpu");

/// An optional text argument: empty means its default from the table (every host's "left out").
std::string_view or_default(const FormulaSpec& f, const char* arg, std::string_view text);

DType dtype_of(const FormulaSpec& f, const char* arg, std::string_view name);

const Profile& profile_of(const FormulaSpec& f, std::string_view name, const char* arg = "profile");

/// A deployment whose model and GPU are the catalog's entries themselves, held, not copied.
struct Deployed {
    std::shared_ptr<const ModelSpec> model;
    std::shared_ptr<const GpuSpec> gpu;
    DeploymentRef ref;
};

/// Refuses a layout that cannot hold the model (operators.hpp, layout_problem), naming its argument.
void check_layout(const FormulaSpec& f, const ModelSpec& m, double tp, const Layout& layout);

/// The model on the GPU in these dtypes over `tp` GPUs in that layout, every text argument resolved and checked;
/// the calling thread's last one kept with the texts it came from.
Deployed deployed(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                  std::string_view kv_dtype, double tp, const Layout& layout);

/// The same as a Deployment of its own (copies of the entries), for what keeps one.
Deployment deployment(const FormulaSpec& f, std::string_view model, std::string_view gpu, std::string_view weight_dtype,
                      std::string_view kv_dtype, double tp, const Layout& layout);

/// Refuses `tokens` of context beyond the model's window (ModelSpec::context_window; 0: no window known), naming
/// `arg`; `what` says what they are ("prompt and answer").
void check_window(const FormulaSpec& f, const ModelSpec& m, double tokens, const char* arg, std::string_view what);

/// The same for a workload: a prompt beyond it names prompt_tokens, a prompt and answer output_tokens.
void check_window(const FormulaSpec& f, const ModelSpec& m, double prompt_tokens, double output_tokens);

/// The operator list of the calling thread's formula calls: its memory is reused from call to call.
std::vector<Operator>& operator_scratch();

}  // namespace roofline::formula_args
