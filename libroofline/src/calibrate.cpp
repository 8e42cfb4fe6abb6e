// The one fitter of profiles, and profiles as text. See calibrate.hpp.
#include "roofline/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "roofline/error.hpp"
#include "roofline/per_thread.hpp"

#include "minimize.hpp"

#include "ascii.hpp"

namespace roofline {
namespace {

using Params = std::array<double, kFitParameterCount>;

Params params_of(const Profile& p) {
    Params v{};
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = p.*kFitParameters[k].field;
    return v;
}

Profile with_params(Profile p, const Params& v) {
    for (std::size_t k = 0; k < v.size(); ++k) p.*kFitParameters[k].field = v[k];
    return p;
}

double lo(std::size_t k) { return kFitParameters[k].lo; }
double hi(std::size_t k) { return kFitParameters[k].hi; }

/// The fit's loss: the sum of |log(predicted / measured)|, robust (no single row dominates); with `squared`, the sum
/// of their squares, smooth, which a simplex descends more surely (polish() starts with it).
double loss(const std::vector<const CalibrationCase*>& cases, const Profile& p, bool squared = false) {
    double l = 0;
    for (const CalibrationCase* c : cases) {
        const double e = std::log(predict_ms(*c, p) / c->measured_ms);
        l += squared ? e * e : std::abs(e);
    }
    return l;
}


double ape_percent(double predicted, double measured) { return std::abs(predicted / measured - 1) * 100; }

[[noreturn]] void bad_text(std::string reason) {
    throw Error::of_argument(Status::invalid_argument, "", "profile", std::move(reason));
}

/// A profile text's parameters: its key, its limits, whether a text may leave it out (those 0.9 added), and
/// where it goes. Wider than the fitter's limits (FitParameter): a text may be written by hand.
struct TextParam {
    std::string_view key;
    double lo, hi;
    bool lo_open;   ///< lo itself refused
    bool optional;  ///< absent from texts of 0.8 (0.9's) or 0.9 (0.10's): the value that leaves the model as it was then
    bool omitted_at_zero;  ///< written only where it is not 0, so that older versions read the text (0.10's expert_us)
    double Profile::*field;
};
constexpr std::array<TextParam, 18> kTextParams{{
    {"bw", 0, 1, true, false, false, &Profile::bandwidth_efficiency},
    {"mfu", 0, 1, true, false, false, &Profile::compute_efficiency},
    {"link", 0, 1, true, false, false, &Profile::interconnect_efficiency},
    {"step_ms", 0, 1000, false, false, false, &Profile::step_overhead_ms},
    {"allreduce_us", 0, 1e5, false, false, false, &Profile::allreduce_latency_us},
    {"mfu_tokens", 0, 1e6, false, true, false, &Profile::mfu_half_tokens},
    {"attn", 0, 1, true, true, false, &Profile::attention_efficiency},
    {"layer_us", 0, 1e4, false, true, false, &Profile::layer_overhead_us},
    {"alltoall_us", 0, 1e5, false, true, false, &Profile::alltoall_latency_us},
    {"expert_us", 0, 1e4, false, true, true, &Profile::expert_overhead_us},
    {"ep_imbalance", 1, 100, false, false, false, &Profile::expert_imbalance},
    {"max_seqs", 0, 1e9, false, true, true, &Profile::max_running_seqs},
    {"max_tokens", 0, 1e9, false, true, true, &Profile::max_iteration_tokens},
    {"scaleout", 0, 1, false, true, true, &Profile::scaleout_efficiency},
    {"attn_compute", 0, 1, false, true, true, &Profile::attention_compute_efficiency},
    {"moe_layer", 0, 4, false, true, true, &Profile::moe_layer},
    {"sparse_gather", 0, 4, false, true, true, &Profile::sparse_gather},
    {"state_compute", 0, 1, false, true, true, &Profile::state_compute_efficiency},
}};
constexpr std::string_view kOverlapKey = "overlap_ep";


}  // namespace

Profile with_parameters(Profile base, std::initializer_list<std::pair<std::string_view, double>> values) {
    for (const auto& value : values) {
        const auto it = std::find_if(kFitParameters.begin(), kFitParameters.end(),
                                     [&](const FitParameter& f) { return f.key == value.first; });
        if (it == kFitParameters.end())
            throw Error::of_call(Status::internal, "", "", fmt::format("no fitted parameter '{}'", value.first));
        base.*it->field = value.second;
    }
    return base;
}

double median(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double predict_ms(const CalibrationCase& c, const Profile& profile) {
    struct Scratch;
    std::vector<Operator>& ops = per_thread<Scratch, std::vector<Operator>>();
    ops = c.ops;
    double ms = c.times * estimate(ops, c.gpu, profile);
    if (c.then_times > 0) {
        ops = c.then_ops;
        ms += c.then_times * estimate(ops, c.gpu, profile);
    }
    return ms;
}

namespace {

/// Nelder-Mead over the parameters that move, scaled to [0, 1] between their limits (a point outside is clamped): it
/// moves several parameters at once, where coordinate descent stops at a kink of the |log| loss along a valley
/// that two parameters share (a fixed cost per step against one per all-reduce). Restarted from its best point
/// with a fresh simplex, smaller each time, since the non-smooth loss can stall a simplex early. Deterministic.
Params polish(const std::vector<const CalibrationCase*>& cases, const Profile& start, Params from, const FitMask& moves) {
    std::vector<std::size_t> dims;  // the parameters that move
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (moves[k]) dims.push_back(k);
    const std::size_t n = dims.size();
    if (n == 0) return from;
    using Point = std::vector<double>;
    auto to_params = [&](const Point& x) {
        Params p = from;
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t k = dims[j];
            p[k] = lo(k) + std::clamp(x[j], 0.0, 1.0) * (hi(k) - lo(k));
        }
        return p;
    };
    bool squared = true;
    auto f = [&](const Point& x) { return loss(cases, with_params(start, to_params(x)), squared); };
    Point best_x(n);
    for (std::size_t j = 0; j < n; ++j) best_x[j] = (from[dims[j]] - lo(dims[j])) / (hi(dims[j]) - lo(dims[j]));
    double best_f = 0;
    // First the smooth loss from the grid's point (its best point is where the robust loss starts), then the robust.
    for (const double step : {0.1, 0.05, 0.05, 0.02}) {
        squared = step == 0.1;
        if (step != 0.02) best_f = f(best_x);
        double f_new = best_f;  // f(best_x)
        Point x = detail::simplex_descent(f, best_x, step, f_new);
        if (f_new < best_f || squared) best_f = f_new, best_x = std::move(x);
    }
    if (!(best_f < loss(cases, with_params(start, from)))) return from;
    // A parameter the simplex moved without gain (no case depends on it) goes back to where it was.
    Params p = to_params(best_x);
    for (std::size_t k = 0; k < kFitParameterCount; ++k) {
        Params q = p;
        q[k] = from[k];
        if (loss(cases, with_params(start, q)) <= loss(cases, with_params(start, p)) + 1e-12) p = q;
    }
    return p;
}

/// The fitted parameters to 4 significant digits, as the profile text shows them (the fit cannot tell them apart
/// more finely than that, and a colleague's copy of the text computes what the text says); those that the fit left
/// at the base's values stay exact.
Profile readable(Profile fitted, const Profile& base) {
    const Params b = params_of(base);
    Params p = params_of(fitted);
    for (std::size_t k = 0; k < p.size(); ++k)
        if (p[k] != b[k]) {
            const std::string digits = fmt::format("{:.4g}", p[k]);  // fmt and from_chars: no locale, '.' always
            std::from_chars(digits.data(), digits.data() + digits.size(), p[k]);
        }
    return with_params(fitted, p);
}

}  // namespace

namespace {

/// The profile a fit starts from: the fitted parameters hold for every GPU of the cases, so none of the base's variants
/// per vendor.
Profile without_variants(Profile p) {
    p.vendors.clear();
    return p;
}

/// Each parameter inside the fitter's limits.
Params clamped(Params p) {
    for (std::size_t k = 0; k < p.size(); ++k) p[k] = std::clamp(p[k], lo(k), hi(k));
    return p;
}

/// Coordinate descent on a shrinking grid from `p`: each moving parameter in turn over 41 points of a span that
/// shrinks by 0.6 a round.
Params descend(const std::vector<const CalibrationCase*>& cases, const Profile& start, Params p, const FitMask& moves) {
    for (int round = 0; round < 12; ++round) {
        const double span = std::pow(0.6, round);
        for (std::size_t k = 0; k < p.size(); ++k) {
            if (!moves[k]) continue;
            const double width = hi(k) - lo(k);
            const double from = std::max(lo(k), p[k] - span * width);
            const double to = std::min(hi(k), p[k] + span * width);
            double best = loss(cases, with_params(start, p)), best_v = p[k];
            for (int i = 0; i <= 40; ++i) {
                Params q = p;
                q[k] = from + (to - from) * i / 40;
                const double l = loss(cases, with_params(start, q));
                if (l < best - 1e-12) best = l, best_v = q[k];
            }
            p[k] = best_v;
        }
    }
    return p;
}

}  // namespace

Profile fit_profile(const std::vector<const CalibrationCase*>& cases, const Profile& base, FitSearch search,
                    const FitMask& moves) {
    // The fit's parameters hold for every GPU of the cases: none of the base's variants per vendor.
    const Profile start = without_variants(base);
    const Params from = clamped(params_of(start));
    Params p = descend(cases, start, from, moves);
    if (search == FitSearch::polished) {
        p = polish(cases, start, p, moves);
        // A second start without the base's fixed cost of a step (step_ms at its lower limit): on decode steps that
        // cost trades against the bandwidth, and a descent from a base with a high one can stay in a valley of high
        // bandwidth where the compute roof of few tokens (mfu_tokens) stands in for the weights' read, far from the
        // best fit. The rows raise the cost again where they need it. The better of the two.
        constexpr std::size_t kStep = fit_index(&Profile::step_overhead_ms);
        if (moves[kStep] && from[kStep] > lo(kStep)) {
            Params other = from;
            other[kStep] = lo(kStep);
            other = polish(cases, start, descend(cases, start, other, moves), moves);
            if (loss(cases, with_params(start, other)) < loss(cases, with_params(start, p))) p = other;
        }
    }
    return with_params(start, p);
}

namespace {

/// How much a parameter can move the rows' times: the largest |log(time / base's time)| over the rows when it alone
/// goes to either end of its range.
double sensitivity(const std::vector<const CalibrationCase*>& cases, const Profile& base, std::size_t k) {
    const Params from = params_of(base);
    double most = 0;
    for (const double end : {lo(k), hi(k)}) {
        Params p = from;
        p[k] = end;
        const Profile moved = with_params(base, p);
        for (const CalibrationCase* c : cases) most = std::max(most, std::abs(std::log(predict_ms(*c, moved) / predict_ms(*c, base))));
    }
    return most;
}

}  // namespace

FitMask informed_parameters(const std::vector<const CalibrationCase*>& cases, const Profile& base) {
    const Profile start = with_params(without_variants(base), clamped(params_of(base)));
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (kCalibrateMoves[k]) {
            const double s = sensitivity(cases, start, k);
            if (s >= kInformedLogChange) ranked.push_back({-s, k});
        }
    std::sort(ranked.begin(), ranked.end());  // most sensitive first; ties by the table's order
    FitMask mask{};
    const std::size_t most = std::max<std::size_t>(1, cases.size() / kRowsPerParameter);
    for (std::size_t i = 0; i < ranked.size() && i < most; ++i) mask[ranked[i].second] = true;
    return mask;
}

Calibration calibrate(const std::vector<CalibrationCase>& cases, const Profile& base) {
    if (cases.size() < kMinCalibrationRows)
        throw Error::of_argument(Status::no_solution, "", "measurements",
                                 fmt::format("{} measured row{}: a fit needs at least {}", cases.size(),
                                             cases.size() == 1 ? "" : "s", kMinCalibrationRows));
    std::vector<const CalibrationCase*> all;
    for (const CalibrationCase& c : cases) all.push_back(&c);
    Calibration out;
    out.base = base.name;
    out.rows = cases.size();
    const FitMask moves = informed_parameters(all, base);
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (moves[k]) out.fitted.emplace_back(kFitParameters[k].key);
    out.profile = readable(fit_profile(all, base, FitSearch::polished, moves), base);
    std::vector<double> train, loo;
    for (const CalibrationCase& c : cases) {
        out.predicted_ms.push_back(predict_ms(c, out.profile));
        train.push_back(ape_percent(out.predicted_ms.back(), c.measured_ms));
        std::vector<const CalibrationCase*> rest;
        for (const CalibrationCase* o : all)
            if (o != &c) rest.push_back(o);
        // The fold chooses its parameters on its own rows, as the fit on all of them did.
        out.loo_predicted_ms.push_back(
            predict_ms(c, fit_profile(rest, base, FitSearch::polished, informed_parameters(rest, base))));
        loo.push_back(ape_percent(out.loo_predicted_ms.back(), c.measured_ms));
    }
    out.mdape_percent = median(train);
    out.loo_mdape_percent = median(loo);
    out.profile.name = profile_text(out);
    return out;
}

std::string profile_text(const Calibration& c) {
    const Profile& p = c.profile;
    std::string fitted;
    for (const std::string& key : c.fitted) fitted += (fitted.empty() ? "" : " ") + key;
    std::string text = fmt::format("fit({}; n={}; loo={:.1f}%; mdape={:.1f}%; fitted {}):", c.base, c.rows,
                                   c.loo_mdape_percent, c.mdape_percent, fitted.empty() ? "none" : fitted);
    for (const TextParam& t : kTextParams)
        if (!t.omitted_at_zero || p.*t.field != 0) text += fmt::format(" {}={},", t.key, p.*t.field);
    return text + fmt::format(" {}={}", kOverlapKey, p.overlap_expert_traffic ? 1 : 0);
}

bool is_profile_text(std::string_view text) noexcept { return text.substr(0, 4) == "fit("; }

Profile profile_from_text(std::string_view text) {
    if (!is_profile_text(text)) bad_text("a profile text starts with 'fit(' (ROOFLINE_CALIBRATE writes one)");
    const std::size_t close = text.find("):");
    if (close == std::string_view::npos) bad_text("a profile text has '):' after its 'fit(...' header");
    Profile p;
    p.name = std::string(text);
    std::array<bool, kTextParams.size() + 1> seen{};
    std::string_view rest = text.substr(close + 2);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = ascii::trimmed(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) bad_text(fmt::format("'{}' is not parameter=value", item));
        const std::string_view key = ascii::trimmed(item.substr(0, eq)), value = ascii::trimmed(item.substr(eq + 1));
        double v = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v))
            bad_text(fmt::format("parameter '{}': '{}' is not a number", key, value));
        std::size_t i = 0;
        while (i < kTextParams.size() && kTextParams[i].key != key) ++i;
        if (i == kTextParams.size() && key != kOverlapKey) {
            std::string known;
            for (const TextParam& t : kTextParams) known += fmt::format("{}, ", t.key);
            bad_text(fmt::format("no parameter '{}' ({}{})", key, known, kOverlapKey));
        }
        if (seen[i]) bad_text(fmt::format("parameter '{}' given twice", key));
        seen[i] = true;
        if (i == kTextParams.size()) {
            if (v != 0 && v != 1) bad_text(fmt::format("parameter '{}' must be 0 or 1 (got {})", key, value));
            p.overlap_expert_traffic = v == 1;
            continue;
        }
        const TextParam& t = kTextParams[i];
        if (v > t.hi || v < t.lo || (t.lo_open && v == t.lo))
            bad_text(fmt::format("parameter '{}' must be {} {} and at most {} (got {})", key,
                                 t.lo_open ? "above" : "at least", t.lo, t.hi, value));
        if (t.key.substr(0, 4) == "max_" && v != std::floor(v))
            bad_text(fmt::format("parameter '{}' must be a whole number (got {})", key, value));
        p.*t.field = v;
    }
    for (std::size_t i = 0; i < kTextParams.size(); ++i)
        if (!seen[i] && !kTextParams[i].optional)
            bad_text(fmt::format("the profile text has no parameter '{}'", kTextParams[i].key));
    constexpr std::size_t alltoall = 8;
    static_assert(kTextParams[alltoall].field == &Profile::alltoall_latency_us);
    if (!seen[alltoall]) p.alltoall_latency_us = p.allreduce_latency_us;  // a text of 0.8: every collective's cost alike
    if (!seen.back()) bad_text(fmt::format("the profile text has no parameter '{}'", kOverlapKey));
    return p;
}

}  // namespace roofline
