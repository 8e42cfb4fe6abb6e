// roofline-planner-accuracy: for every row of tests/data/serving-validation.csv (published serving
// throughput under latency limits, at a stated batch, of a decode pool at a stated batch, or at maximum load),
// the throughput per GPU the serving model predicts under `bound` and `typical`, with errors; then the median
// absolute percentage error (MdAPE) of `typical` per GPU, per model, per layout kind (TP, TEP, DEP, PP, ...:
// serving_validation::layout_kind), per kind of row and per source family; then, per row, the best `bound`
// over the layouts of its GPUs (serving_validation::bound_layouts) and `bound` in tensor parallelism alone; then,
// for rows that are bursts (burst_requests, ttft_ms_mean: tests/data/serving-validation-long.csv), the burst
// simulated under `typical` and `bound`: its mean TTFT and throughput against the published ones.
// A row the model finds infeasible within its limits counts as a prediction of 0 (an error of -100%).
//
//   build/bench/roofline-planner-accuracy [tests/data/serving-validation.csv] [--svg FILE]
//
// --svg FILE also writes the validation figure (docs/images/planner-validation.svg): predicted against
// published output tokens/s per GPU, log-log, the y = x line and a +-25% band, `typical` as filled markers
// and `bound` as open ones, coloured by source family; one `typical` and one `bound` marker per row; beside
// the plot, the MdAPE per GPU, per model and per layout kind, and the legend.
// Exit status 1 when `bound` (in the row's layout, or its best over layouts) is below a published throughput
// (no engine should beat it), or a burst's simulation under `bound` has a higher mean TTFT or a lower throughput
// than the published ones; 2 on bad arguments.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "calibration_rows.hpp"
#include "roofline/calibrate.hpp"
#include "serving_validation.hpp"

namespace {

using roofline::median;

double predict(const measurements::Row& r, const char* profile) {
    return serving_validation::predicted_tokens_per_s_per_gpu(r, *roofline::find_profile(profile));
}

struct Point {
    std::string id, family;
    double published, bound, typical;
};

struct Family {
    const char* label;
    const char* colour;
};

// Legend label and colour of each source family (the id's prefix); others get a grey "family" label.
Family family_style(const std::string& f) {
    static const std::map<std::string, Family> known{
        {"nim", {"NVIDIA NIM 1.8, latency limits", "#d62728"}},
        {"trt05", {"TensorRT-LLM v0.5, stated batch", "#1f77b4"}},
        {"rocm", {"vLLM on ROCm (MI300X), stated batch", "#9467bd"}},
        {"mlperf51", {"MLPerf Inference v5.1, latency limits", "#ff7f0e"}},
        {"mlperf50", {"MLPerf Inference v5.0 (NVIDIA), max load, limits", "#bcbd22"}},
        {"lmsys", {"LMSYS SGLang wide EP, decode pools", "#8c564b"}},
        {"trtllm", {"TensorRT-LLM DeepSeek-R1, DEP8, stated batch", "#17becf"}},
        {"sglang", {"SGLang: gpt-oss, Qwen3-Next, Kimi K2.5", "#e377c2"}},
        {"atom", {"AMD ATOM on MI355X, limits, batch", "#2ca02c"}},
        {"qwen", {"Qwen docs: SGLang on H20, batch 1", "#000000"}},
        {"mlperf51open", {"MLPerf v5.1 open, MI355X, max load", "#393b79"}},
    };
    const auto it = known.find(f);
    return it != known.end() ? it->second : Family{"other", "#7f7f7f"};
}

std::string xml_escape(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string thousands(double v) {
    std::string s = fmt::format("{:.0f}", v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

// One group of the panel beside the plot: a title and (label, rows, MdAPE of typical) lines.
struct Group {
    std::string title;
    std::vector<std::tuple<std::string, std::size_t, double>> lines;
};

// The validation figure as an SVG document.
// `stats`: rows and MdAPE of typical per source family; `summary`: further MdAPE lines under the legend;
// `groups`: the panel on the right (MdAPE per GPU, per model, per layout kind).
std::string svg(const std::vector<Point>& points, const std::map<std::string, std::pair<std::size_t, double>>& stats,
                const std::vector<std::pair<std::string, double>>& summary, const std::vector<Group>& groups) {
    // The plot (684 x 500), and on its right the panel of MdAPE per group with the legend under it.
    std::vector<std::string> families;
    for (const Point& p : points)
        if (std::find(families.begin(), families.end(), p.family) == families.end()) families.push_back(p.family);
    const double lw = 472, lh = 18.0 * static_cast<double>(families.size() + 1 + summary.size()) + 10;
    double panel_h = 24;
    for (const Group& g : groups) panel_h += 16 + 14 * static_cast<double>(g.lines.size()) + 8;
    const double left = 80, top = 56, pw = 684, right = 28 + lw + 16;
    const double W = left + pw + right, H = std::max(620.0, top + panel_h + 12 + lh + 16);
    const double ph = 500;
    // Whole decades around every positive value.
    double lo = 1e300, hi = 0;
    for (const Point& p : points)
        for (const double v : {p.published, p.bound, p.typical})
            if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
    const double d0 = std::floor(std::log10(lo)), d1 = std::ceil(std::log10(hi));
    const auto x = [&](double v) { return left + (std::log10(v) - d0) / (d1 - d0) * pw; };
    const auto y = [&](double v) { return top + ph - (std::log10(v) - d0) / (d1 - d0) * ph; };
    const double vlo = std::pow(10, d0), vhi = std::pow(10, d1);

    std::string s;
    s += fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
        "<title>libroofline planner: predicted against published output tokens/s per GPU</title>\n"
        "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        W, H);
    s += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Capacity planner against published "
                     "serving throughput ({} rows)</text>\n",
                     left, points.size());
    s += fmt::format("<text x=\"{}\" y=\"42\" fill=\"#444\">output tokens/s per GPU, log-log; filled: typical, open: "
                     "bound; shaded: within \u00b125%</text>\n",
                     left);
    // Grid and decade labels.
    for (double d = d0; d <= d1; ++d) {
        const double v = std::pow(10, d);
        for (int m = 2; m <= 9 && d < d1; ++m) {
            const double u = m * v;
            s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#f0f0f0\"/>\n", x(u),
                             top, top + ph);
            s += fmt::format("<line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\" stroke=\"#f0f0f0\"/>\n", y(u),
                             left, left + pw);
        }
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#d0d0d0\"/>\n", x(v), top,
                         top + ph);
        s += fmt::format("<line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\" stroke=\"#d0d0d0\"/>\n", y(v), left,
                         left + pw);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x(v), top + ph + 18,
                         thousands(v));
        s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, y(v) + 4,
                         thousands(v));
    }
    // The +-25% band and y = x, clipped to the plot.
    s += fmt::format("<clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n", left,
                     top, pw, ph);
    s += fmt::format("<polygon clip-path=\"url(#plot)\" fill=\"#999\" fill-opacity=\"0.18\" points=\"{:.1f},{:.1f} "
                     "{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>\n",
                     x(vlo), y(vlo * 1.25), x(vhi), y(vhi * 1.25), x(vhi), y(vhi * 0.75), x(vlo), y(vlo * 0.75));
    s += fmt::format("<line clip-path=\"url(#plot)\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" "
                     "stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n",
                     x(vlo), y(vlo), x(vhi), y(vhi));
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", left, top,
                     pw, ph);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">published output tokens/s per GPU</text>\n",
                     left + pw / 2, top + ph + 42);
    s += fmt::format("<text transform=\"translate(20,{:.1f}) rotate(-90)\" text-anchor=\"middle\">predicted output "
                     "tokens/s per GPU</text>\n",
                     top + ph / 2);
    // Markers: bound (open) first, typical (filled) above; an infeasible prediction (0) sits on the bottom edge
    // as a downward triangle.
    for (const Point& p : points) {
        const Family f = family_style(p.family);
        s += fmt::format("<circle class=\"point bound\" data-id=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" "
                         "fill=\"none\" stroke=\"{}\" stroke-width=\"1.3\"/>\n",
                         xml_escape(p.id), x(p.published), y(p.bound), f.colour);
    }
    for (const Point& p : points) {
        const Family f = family_style(p.family);
        if (p.typical > 0) {
            s += fmt::format("<circle class=\"point typical\" data-id=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" "
                             "fill=\"{}\" fill-opacity=\"0.85\" stroke=\"white\" stroke-width=\"0.6\"/>\n",
                             xml_escape(p.id), x(p.published), y(p.typical), f.colour);
        } else {
            const double cx = x(p.published), cy = top + ph - 7;
            s += fmt::format("<polygon class=\"point typical infeasible\" data-id=\"{}\" points=\"{:.1f},{:.1f} "
                             "{:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"{}\"/>\n",
                             xml_escape(p.id), cx - 5, cy - 4, cx + 5, cy - 4, cx, cy + 5, f.colour);
        }
    }
    // The panel: MdAPE of typical per GPU, per model and per layout kind.
    double py = top + 4;
    const double px = left + pw + 28;
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" font-weight=\"bold\">MdAPE of typical</text>\n", px, py);
    py += 20;
    for (const Group& g : groups) {
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>\n", px, py, xml_escape(g.title));
        py += 16;
        for (const auto& [label, n, mdape] : g.lines) {
            s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>", px + 8, py, xml_escape(label));
            s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{} rows</text>", px + 232,
                             py, n);
            s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{:.1f}%</text>\n", px + 300,
                             py, mdape);
            py += 14;
        }
        py += 8;
    }
    // The legend under the panel, beside the plot (no marker hides behind it).
    const double lx = px + 8;
    double ly = py + 16;
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\" fill-opacity=\"0.92\" "
                     "stroke=\"#bbb\"/>\n",
                     lx - 8, ly - 14, lw - 2, lh - 6);
    for (const std::string& fam : families) {
        const Family f = family_style(fam);
        s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"{}\"/>", lx + 4, ly - 4, f.colour);
        s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"none\" stroke=\"{}\" "
                         "stroke-width=\"1.3\"/>",
                         lx + 18, ly - 4, f.colour);
        const auto st = stats.at(fam);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}: {} rows, MdAPE {:.1f}%</text>\n", lx + 30, ly,
                         xml_escape(f.label), st.first, st.second);
        ly += 18;
    }
    s += fmt::format("<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"#555\"/>", lx - 1, ly - 8,
                     lx + 9, ly - 8, lx + 4, ly + 1);
    const auto infeasible = std::count_if(points.begin(), points.end(), [](const Point& p) { return p.typical <= 0; });
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">typical finds no batch within the limits: {} rows (-100%)</text>\n",
                     lx + 30, ly, infeasible);
    ly += 18;
    for (const auto& [label, mdape] : summary) {
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-weight=\"bold\">MdAPE of typical, {}: {:.1f}%</text>\n",
                         lx, ly, xml_escape(label), mdape);
        ly += 18;
    }
    s += "</svg>\n";
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    std::string path = "tests/data/serving-validation.csv", svg_path;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--svg") {
            if (i + 1 >= argc) {
                fmt::print(stderr, "--svg needs a file name\n");
                return 2;
            }
            svg_path = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            fmt::print(stderr, "unknown option '{}'; usage: roofline-planner-accuracy [CSV] [--svg FILE]\n", a);
            return 2;
        } else {
            path = a;
        }
    }
    const auto rows = measurements::read(path);
    std::map<std::string, std::vector<double>> by_gpu, by_model, by_layout, by_kind, by_family, by_model_kind,
        by_vendor, by_kind_vendor;  // |%| of typical
    std::vector<double> all;
    std::vector<Point> points;
    int above = 0;
    fmt::print("{:<40} {:<14} {:<16} {:<11} {:>3} {:<5} {:>5} {:>5} {:>6} {:>10} {:>10} {:>7} {:>10} {:>7}\n", "id",
               "gpu", "model", "w", "tp", "lay", "in", "out", "batch", "published", "bound", "err", "typical", "err");
    for (const auto& r : rows) {
        const double published = r.number("output_tokens_per_s_per_gpu");
        const double bound = predict(r, "bound"), typical = predict(r, "typical");
        const double e_bound = (bound / published - 1) * 100, e_typical = (typical / published - 1) * 100;
        if (!(bound >= published)) ++above;
        const auto kind = serving_validation::kind(r);
        const std::string layout = serving_validation::layout_kind(r);
        by_gpu[r["gpu"]].push_back(std::abs(e_typical));
        by_model[r["model"]].push_back(std::abs(e_typical));
        const std::string model_kind = calibration_rows::model_kind(*roofline::find_model(r["model"]));
        const std::string vendor = roofline::find_gpu(r["gpu"])->vendor;
        by_model_kind[model_kind].push_back(std::abs(e_typical));
        by_vendor[vendor].push_back(std::abs(e_typical));
        by_kind_vendor[fmt::format("{} on {}", model_kind, vendor)].push_back(std::abs(e_typical));
        by_layout[layout].push_back(std::abs(e_typical));
        by_kind[serving_validation::kind_name(kind)].push_back(std::abs(e_typical));
        by_family[serving_validation::family(r)].push_back(std::abs(e_typical));
        all.push_back(std::abs(e_typical));
        points.push_back({r["id"], serving_validation::family(r), published, bound, typical});
        const std::string batch = kind == serving_validation::Kind::stated_batch     ? r["batch"]
                                  : kind == serving_validation::Kind::decode_batch   ? "D" + r["batch"]
                                  : kind == serving_validation::Kind::latency_limits ? "SLO"
                                                                                     : "max";
        const std::string experts = serving_validation::optional(r, "expert_dtype");
        const std::string formats = experts.empty() ? r["weight_dtype"] : r["weight_dtype"] + "/" + experts;
        fmt::print("{:<40} {:<14} {:<16} {:<11} {:>3} {:<5} {:>5} {:>5} {:>6} {:>10.0f} {:>10.0f} {:>6.1f}% {:>10.0f} {:>6.1f}%\n",
                   r["id"], r["gpu"], r["model"], formats, r["tp"], layout, r["prompt_tokens"], r["output_tokens"],
                   batch, published, bound, e_bound, typical, e_typical);
    }
    fmt::print("\nMedian absolute percentage error of typical, output tokens/s per GPU\n");
    const auto group = [](const char* title, const std::map<std::string, std::vector<double>>& m, const char* prefix) {
        fmt::print("  {}\n", title);
        for (const auto& [k, v] : m) fmt::print("    {:<28} {:>3} rows  {:6.1f}%\n", prefix + k, v.size(), median(v));
    };
    group("per GPU", by_gpu, "");
    group("per GPU vendor", by_vendor, "");
    group("per model", by_model, "");
    group("per model kind (dense, MoE, MLA: MoE with latent attention, hybrid)", by_model_kind, "");
    group("per model kind and GPU vendor", by_kind_vendor, "");
    group("per layout kind", by_layout, "");
    group("per kind of row", by_kind, "");
    group("per source", by_family, "source ");
    fmt::print("  {:<30} {:>3} rows  {:6.1f}%\n", "all", all.size(), median(all));
    fmt::print("\nbound below a published throughput: {} of {} rows\n", above, rows.size());

    // Deliver 6: bound over the layouts of each row's GPUs (serving_validation::bound_layouts): the best
    // bound and the layout that gives it, and bound in plain tensor parallelism, against the published figure.
    fmt::print("\nbound over the layouts of the row's GPUs (own, TP, TEP and DEP for MoE, TPxPP/PP); other layouts "
               "keep the row's batch where it fits in their memory\n");
    fmt::print("{:<40} {:<5} {:>10} {:>10} {:>10} {:<14} {:>10}\n", "id", "own", "published", "own bound", "best",
               "best layout", "TP bound");
    int best_below = 0, tp_below = 0;
    for (const auto& r : rows) {
        const double published = r.number("output_tokens_per_s_per_gpu");
        const auto& bound_profile = *roofline::find_profile("bound");
        const auto [best, layout] = serving_validation::best_bound_over_layouts(r, bound_profile);
        roofline::Deployment tp_only = serving_validation::deployment(r);
        const bool own_is_tp = tp_only.layout.trivial();
        tp_only.layout = {};
        // Tensor parallelism over tp GPUs needs the attention heads to divide among them (not for 48 or 72).
        const bool tp_expressible = roofline::layout_problem(tp_only.model, tp_only.tp, tp_only.layout).empty();
        const double tp_bound =
            tp_expressible ? serving_validation::predicted_tokens_per_s_per_gpu(r, tp_only, bound_profile, !own_is_tp) : NAN;
        if (!(best >= published)) ++best_below;
        if (tp_expressible && !(tp_bound >= published)) ++tp_below;
        const std::string name = fmt::format("{} ep{:g} dp{:g} pp{:g}", serving_validation::layout_kind(r.number("tp"), layout),
                                             layout.ep, layout.dp_attention, layout.pp);
        fmt::print("{:<40} {:<5} {:>10.0f} {:>10.0f} {:>10.0f} {:<14} {:>10.0f}{}\n", r["id"],
                   serving_validation::layout_kind(r), published, predict(r, "bound"), best, name, tp_bound,
                   !tp_expressible ? "  (no TP layout: heads)" : tp_bound >= published ? "" : "  (TP alone is below)");
    }
    fmt::print("best bound over layouts below a published throughput: {} of {} rows; bound in TP alone (where the "
               "heads allow it) below: {}\n",
               best_below, rows.size(), tp_below);

    // Bursts (burst_requests given: a benchmark client's requests sent at once), simulated iteration by iteration:
    // the mean TTFT (the queue included) and the throughput over the burst, against the published ones.
    std::vector<double> burst_ttft, burst_tput;
    int burst_beaten = 0;
    for (const auto& r : rows) {
        if (!serving_validation::is_burst(r)) continue;
        if (burst_ttft.empty())
            fmt::print("\nbursts simulated (docs/serving-model.md, section 14): mean TTFT and output tokens/s per GPU\n"
                       "{:<40} {:>12} {:>12} {:>8} {:>12} {:>10} {:>10} {:>8}\n", "id", "TTFT ms", "typical", "err",
                       "bound", "tok/s/GPU", "typical", "err");
        const double ttft = r.number("ttft_ms_mean"), tput = r.number("output_tokens_per_s_per_gpu");
        const auto t = serving_validation::simulated_burst(r, *roofline::find_profile("typical"));
        const auto b = serving_validation::simulated_burst(r, *roofline::find_profile("bound"));
        if (!serving_validation::bound_holds(r, b)) ++burst_beaten;
        const double e_ttft = (t.ttft_ms / ttft - 1) * 100, e_tput = (t.tokens_per_s_per_gpu / tput - 1) * 100;
        burst_ttft.push_back(std::abs(e_ttft));
        burst_tput.push_back(std::abs(e_tput));
        fmt::print("{:<40} {:>12.0f} {:>12.0f} {:>7.1f}% {:>12.0f} {:>10.2f} {:>10.2f} {:>7.1f}%\n", r["id"], ttft,
                   t.ttft_ms, e_ttft, b.ttft_ms, tput, t.tokens_per_s_per_gpu, e_tput);
    }
    if (!burst_ttft.empty())
        fmt::print("median absolute percentage error of typical over {} bursts: mean TTFT {:.1f}%, throughput {:.1f}%; "
                   "bound's simulation beaten (a lower TTFT or a higher throughput published): {} rows\n",
                   burst_ttft.size(), median(burst_ttft), median(burst_tput), burst_beaten);

    if (!svg_path.empty()) {
        std::map<std::string, std::pair<std::size_t, double>> stats;
        for (const auto& [fam, v] : by_family) stats[fam] = {v.size(), median(v)};
        std::vector<std::pair<std::string, double>> summary;
        summary.emplace_back(fmt::format("all {} rows", all.size()), median(all));
        if (const auto it = by_kind.find("under latency limits"); it != by_kind.end())
            summary.emplace_back(fmt::format("the {} rows under latency limits", it->second.size()), median(it->second));
        std::ofstream out(svg_path);
        std::vector<Group> groups;
        for (const auto& [title, m] : {std::pair<const char*, const std::map<std::string, std::vector<double>>*>{"per GPU", &by_gpu},
                                        {"per model", &by_model},
                                        {"per layout kind (TP, TEP, DEP, PP, ...)", &by_layout}}) {
            Group g{title, {}};
            for (const auto& [k, v] : *m) g.lines.emplace_back(k, v.size(), median(v));
            groups.push_back(std::move(g));
        }
        out << svg(points, stats, summary, groups);
        if (!out) {
            fmt::print(stderr, "cannot write {}\n", svg_path);
            return 2;
        }
        fmt::print("wrote {}\n", svg_path);
    }
    return above == 0 && best_below == 0 && burst_beaten == 0 ? 0 : 1;
}
