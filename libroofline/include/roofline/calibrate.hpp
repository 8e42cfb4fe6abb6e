// Calibration: a profile's parameters fitted on measured steps, and a profile written as text.
//
// One fitter for every profile: tools/fit-profiles fits the built-in profiles (profiles.json) with it, and
// ROOFLINE_CALIBRATE fits a user's measured rows with it, in the sheet. A fitted profile travels as text
// ("fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.83, mfu=0.61, ..."): every formula's `profile`
// argument takes that text as it takes a profile's name, so a workbook carries its own calibration.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

namespace roofline {

/// One measured step: its operators (as decode_operators or prefill_operators gives them, before
/// estimate()), the GPU it ran on, and the measured time in ms. `metric` is "step_ms" or "ttft_ms".
struct CalibrationCase {
    std::vector<Operator> ops;
    GpuSpec gpu;
    std::string metric;
    double measured_ms = 0;
};

/// The fitted parameters: the five of a profile that measurements tell apart (bandwidth, compute and
/// interconnect efficiency, the fixed costs of a forward pass and of an all-reduce), each between the
/// limits the fitter keeps it in. Expert imbalance and overlap come from the base profile, not fitted.
struct FitLimits {
    static constexpr double lo[5] = {0.3, 0.1, 0.5, 0.0, 0.0};
    static constexpr double hi[5] = {1.0, 1.0, 1.0, 10.0, 100.0};
};

/// The model's time for a case under a profile, in ms.
double predict_ms(const CalibrationCase& c, const Profile& profile);

/// How far fit_profile() searches: `grid`, coordinate descent on a shrinking grid (what fitted the built-in
/// profiles of profiles.json); `polished`, then Nelder-Mead from there, which also moves parameters together
/// (ROOFLINE_CALIBRATE).
enum class FitSearch { grid, polished };

/// Fits the five parameters of `start` on the cases, from `start`'s values (deterministic; a parameter no case
/// depends on keeps its start), by minimising the sum of |log(predicted / measured)|: a robust loss that no
/// single row dominates. The rest of `start` is kept.
Profile fit_profile(const std::vector<const CalibrationCase*>& cases, const Profile& start,
                    FitSearch search = FitSearch::grid);

/// A fit and its errors: median absolute percentage errors on the rows and in leave-one-out
/// cross-validation (each row predicted by a fit that never saw it), and each row's two predictions.
struct Calibration {
    Profile profile;
    std::string base;  ///< the base profile's name
    std::size_t rows = 0;
    double mdape_percent = 0;
    double loo_mdape_percent = 0;
    std::vector<double> predicted_ms, loo_predicted_ms;
};

/// Fits `base`'s parameters on every case (at least kMinCalibrationRows), as fit_profile, with the errors.
inline constexpr std::size_t kMinCalibrationRows = 3;
Calibration calibrate(const std::vector<CalibrationCase>& cases, const Profile& base);

/// The profile as text, readable and carrying its fit:
/// "fit(<base>; n=<rows>; mdape=<x>%; loo=<y>%): bw=.., mfu=.., link=.., step_ms=.., allreduce_us=..,
/// ep_imbalance=.., overlap_ep=0|1". Every number is written so that it reads back to the same double.
std::string profile_text(const Calibration& c);

/// Whether a profile argument is a profile text (it starts with "fit(") rather than a profile's name.
bool is_profile_text(std::string_view text) noexcept;

/// The profile a profile text describes (its name: the text). Throws Error (argument "profile") naming the
/// parameter that is missing, unknown, repeated, not a number or outside its limits.
Profile profile_from_text(std::string_view text);

}  // namespace roofline
