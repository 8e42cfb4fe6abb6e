// Calibration: a profile's parameters fitted on measured steps, and a profile written as text.
//
// One fitter for every profile: tools/fit-profiles fits the built-in profiles (profiles.json) with it, and
// ROOFLINE_CALIBRATE fits a user's measured rows with it, in the sheet. A fitted profile travels as text
// ("fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.83, mfu=0.61, ..."): every formula's `profile`
// argument takes that text as it takes a profile's name, so a workbook carries its own calibration.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

namespace roofline {

/// One measured row: its operators (as decode_operators, prefill_operators or mixed_operators give them, before
/// estimate()), the GPU it ran on, and the measured time in ms. `metric` is "step_ms", "ttft_ms", "tpot_ms" or
/// "e2e_ms". A row of two phases (an end-to-end latency: one prefill, then the decode steps) adds `then_times`
/// times the time of `then_ops` to `times` times that of `ops` (a serving TPOT: the mean over the iterations of the
/// engine's schedule, docs/serving-model.md section 2, those with floor(n) prompts and those with one more).
struct CalibrationCase {
    std::vector<Operator> ops;
    GpuSpec gpu;
    std::string metric;
    double measured_ms = 0;
    std::vector<Operator> then_ops;
    double then_times = 0;
    double times = 1;
};

/// A parameter of a profile that the fitter fits: its name in profiles.json, its key in a profile text, the
/// limits the fitter keeps it in, and the Profile field. One table: the fitter, profiles.json, the texts and
/// the documentation follow it.
struct FitParameter {
    std::string_view json, key;
    double lo, hi;
    double Profile::*field;
};
inline constexpr std::size_t kFitParameterCount = 10;
inline constexpr std::array<FitParameter, kFitParameterCount> kFitParameters{{
    {"bandwidth_efficiency", "bw", 0.5, 1.0, &Profile::bandwidth_efficiency},
    {"compute_efficiency", "mfu", 0.25, 1.0, &Profile::compute_efficiency},
    {"interconnect_efficiency", "link", 0.5, 1.0, &Profile::interconnect_efficiency},
    {"step_overhead_ms", "step_ms", 0.0, 10.0, &Profile::step_overhead_ms},
    {"allreduce_latency_us", "allreduce_us", 0.0, 100.0, &Profile::allreduce_latency_us},
    {"mfu_half_tokens", "mfu_tokens", 0.0, 2048.0, &Profile::mfu_half_tokens},
    {"attention_efficiency", "attn", 0.25, 1.0, &Profile::attention_efficiency},
    {"layer_overhead_us", "layer_us", 0.0, 200.0, &Profile::layer_overhead_us},
    {"alltoall_latency_us", "alltoall_us", 0.0, 500.0, &Profile::alltoall_latency_us},
    {"expert_overhead_us", "expert_us", 0.0, 100.0, &Profile::expert_overhead_us},
}};

/// The index in kFitParameters of a Profile field: the one way to name a fitted parameter's place (a field that is
/// not one of them is no constant expression, so a compile-time use of it fails to compile).
constexpr std::size_t fit_index(double Profile::*field) {
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (kFitParameters[k].field == field) return k;
    throw "not a fitted parameter";
}

/// `base` with some of its fitted parameters set, each named by its key in a profile text ("bw", "mfu", ...:
/// kFitParameters): the one way to write a profile's parameters by name (a lab profile in a test, a fit's start).
/// Throws Error (internal) for a key that is not one of kFitParameters'.
Profile with_parameters(Profile base, std::initializer_list<std::pair<std::string_view, double>> values);

/// The median of `values` (the mean of the two middle ones when their count is even); NaN when there are none. The
/// one median of the errors: the fit's MdAPE, fit-profiles' and the accuracy benchmarks'.
double median(std::vector<double> values);

/// The model's time for a case under a profile, in ms.
double predict_ms(const CalibrationCase& c, const Profile& profile);

/// How far fit_profile() searches: `grid`, coordinate descent on a shrinking grid (what fitted the built-in
/// profiles of profiles.json); `polished`, then Nelder-Mead from there, which also moves parameters together
/// (ROOFLINE_CALIBRATE).
enum class FitSearch { grid, polished };

/// Fits the parameters of `start` (kFitParameters) on the cases, from `start`'s values (deterministic; a parameter no case
/// depends on keeps its start), by minimising the sum of |log(predicted / measured)|: a robust loss that no
/// single row dominates. The rest of `start` is kept, but its variants per vendor (Profile::vendors): the fitted
/// parameters hold for every GPU. `polished` searches from two points, `start`'s values and the same without its
/// fixed cost of a step (which trades against the bandwidth on decode steps), and keeps the better fit.
/// Which of kFitParameters a fit moves (the others keep `start`'s values).
using FitMask = std::array<bool, kFitParameterCount>;
inline constexpr FitMask kFitAll = {true, true, true, true, true, true, true, true, true, true};
Profile fit_profile(const std::vector<const CalibrationCase*>& cases, const Profile& start,
                    FitSearch search = FitSearch::grid, const FitMask& moves = kFitAll);

/// A number of a profile that is set, not fitted (profiles.json "set", each with its source there): its name in
/// profiles.json, the value where a profile sets none, and the Profile field. One table: the library reading
/// profiles.json and the fitter keeping the set values in its fit both follow it. (overlap_expert_traffic, a flag,
/// is read beside it.)
struct SetParameter {
    std::string_view json;
    double absent;
    double Profile::*field;
};
inline constexpr std::array<SetParameter, 8> kSetParameters{{
    {"expert_imbalance", 1.0, &Profile::expert_imbalance},
    {"max_running_seqs", 0.0, &Profile::max_running_seqs},
    {"max_iteration_tokens", 0.0, &Profile::max_iteration_tokens},
    {"scaleout_efficiency", 0.0, &Profile::scaleout_efficiency},
    {"attention_compute_efficiency", 0.0, &Profile::attention_compute_efficiency},
    {"moe_layer", 0.0, &Profile::moe_layer},
    {"sparse_gather", 0.0, &Profile::sparse_gather},
    {"state_compute_efficiency", 0.0, &Profile::state_compute_efficiency},
}};

/// What calibrate() (ROOFLINE_CALIBRATE) fits: all but the cost per layer, per all-to-all and per routed expert,
/// which a user's rows (most often of one model, without expert parallelism) cannot tell from the cost of a step
/// and of an all-reduce: those keep the base profile's values.
inline constexpr FitMask kCalibrateMoves = {true, true, true, true, true, true, true, false, false, false};
static_assert(kFitParameters[7].field == &Profile::layer_overhead_us &&
              kFitParameters[8].field == &Profile::alltoall_latency_us);

/// A fit and its errors: median absolute percentage errors on the rows and in leave-one-out
/// cross-validation (each row predicted by a fit that never saw it), and each row's two predictions.
struct Calibration {
    Profile profile;
    std::string base;  ///< the base profile's name
    std::size_t rows = 0;
    std::vector<std::string> fitted;  ///< the keys of the parameters fitted (informed_parameters); the rest are base's
    double mdape_percent = 0;
    double loo_mdape_percent = 0;
    std::vector<double> predicted_ms, loo_predicted_ms;
};

/// The parameters of kCalibrateMoves that the rows can tell (since 0.14): those whose move across their range changes
/// some row's time by kInformedLogChange or more (in |log|: about 5%) from `base`'s, the most telling first, at most one
/// for every kRowsPerParameter rows (at least one). The rest keep `base`'s values. Before 0.14 a fit moved all seven,
/// however few the rows: three rows fitted exactly (mdape 0.0%), and one more row moved the bandwidth from 0.85 to
/// 0.52 (issue #43).
inline constexpr double kInformedLogChange = 0.05;
inline constexpr std::size_t kRowsPerParameter = 2;
FitMask informed_parameters(const std::vector<const CalibrationCase*>& cases, const Profile& base);

/// Fits `base`'s parameters that the rows inform (informed_parameters) on every case (at least kMinCalibrationRows),
/// as fit_profile, with the errors; each fold of the leave-one-out chooses its own parameters on its rows.
inline constexpr std::size_t kMinCalibrationRows = 3;
Calibration calibrate(const std::vector<CalibrationCase>& cases, const Profile& base);

/// The profile as text, readable and carrying its fit, its leave-one-out error first (since 0.14; the header is not
/// read back: a text of 0.13, "fit(<base>; n=<rows>; mdape=<x>%; loo=<y>%): ...", reads as before):
/// "fit(<base>; n=<rows>; loo=<y>%; mdape=<x>%; fitted <keys>): bw=.., mfu=.., link=.., step_ms=.., allreduce_us=..,
/// mfu_tokens=.., attn=.., layer_us=.., alltoall_us=.., [expert_us=.., ]ep_imbalance=.., overlap_ep=0|1" (expert_us only
/// where it is not 0, so that 0.8 and 0.9 read the text). Every number is written
/// so that it reads back to the same double.
std::string profile_text(const Calibration& c);

/// Whether a profile argument is a profile text (it starts with "fit(") rather than a profile's name.
bool is_profile_text(std::string_view text) noexcept;

/// The profile a profile text describes (its name: the text). Throws Error (argument "profile") naming the
/// parameter that is missing, unknown, repeated, not a number or outside its limits. The parameters 0.9 added
/// (mfu_tokens, attn, layer_us, alltoall_us) may be absent, as in a text of 0.8, and the one 0.10 added (expert_us),
/// as in a text of 0.8 or 0.9: they then leave the model as those versions computed it (0, 1, 0, alltoall_us =
/// allreduce_us, and 0), so a workbook's profile text keeps its numbers.
Profile profile_from_text(std::string_view text);

}  // namespace roofline
