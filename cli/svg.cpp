#include "svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cli {
namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else out += c;
    }
    return out;
}

}  // namespace

bool write_svg(const std::string& path, const PlotData& d) {
    constexpr double W = 900, H = 600, L = 90, R = 40, T = 60, B = 70;
    const double x0 = std::log10(d.roof.front().first), x1 = std::log10(d.roof.back().first);
    double ymin = d.roof.front().second, ymax = d.tflops;
    for (const auto& p : d.points) ymin = std::min(ymin, p.tflops);
    const double y0 = std::floor(std::log10(ymin)), y1 = std::ceil(std::log10(ymax) + 0.1);
    auto X = [&](double ai) { return L + (std::log10(ai) - x0) / (x1 - x0) * (W - L - R); };
    auto Y = [&](double tf) { return H - B - (std::log10(tf) - y0) / (y1 - y0) * (H - T - B); };

    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{2}\" y=\"30\" font-size=\"16\" text-anchor=\"middle\">{3}</text>\n",
        W, H, W / 2, escape(d.title));
    // Decades: grid lines and labels.
    for (double e = std::ceil(x0); e <= x1; e += 1) {
        const double x = X(std::pow(10, e));
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>"
                         "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:g}</text>\n",
                         x, T, H - B, H - B + 20, std::pow(10, e));
    }
    for (double e = y0; e <= y1; e += 1) {
        const double y = Y(std::pow(10, e));
        s += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
                         "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
                         L, y, W - R, L - 8, y + 4, std::pow(10, e));
    }
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", L, T,
                     W - L - R, H - T - B);
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">Arithmetic intensity (FLOP/byte)</text>\n",
                     (L + W - R) / 2, H - 25);
    s += fmt::format("<text transform=\"translate(25 {}) rotate(-90)\" text-anchor=\"middle\">Attainable TFLOP/s</text>\n",
                     (T + H - B) / 2);
    // The roof.
    std::string pts;
    for (const auto& [ai, tf] : d.roof) pts += fmt::format("{:.1f},{:.1f} ", X(ai), Y(tf));
    s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"3\"/>\n", pts);
    // The balance point.
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#888\" stroke-dasharray=\"5,4\"/>"
                     "<text x=\"{3:.1f}\" y=\"{4}\" fill=\"#555\">balance point {5:.0f} FLOP/byte</text>\n",
                     X(d.balance), T, H - B, X(d.balance) + 6, H - B - 8, d.balance);
    // The workloads.
    const char* colors[] = {"#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"};
    for (size_t i = 0; i < d.points.size(); ++i) {
        const PlotPoint& p = d.points[i];
        const char* c = colors[i % 8];
        s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/>\n", X(p.ai), Y(p.tflops), c);
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{} ({:.4g} FLOP/byte, {:.4g} TFLOP/s)</text>\n",
                         std::min(X(p.ai) + 10, W - R - 330), Y(p.tflops) + 18 + 14.0 * static_cast<double>(i % 4), c,
                         escape(p.label), p.ai, p.tflops);
    }
    s += "</svg>\n";

    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    const bool ok = std::fwrite(s.data(), 1, s.size(), f) == s.size();
    return std::fclose(f) == 0 && ok;
}

}  // namespace cli
