#include "svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "output.hpp"

namespace cli {
namespace {

std::string escape(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        if (c == '&') escaped += "&amp;";
        else if (c == '<') escaped += "&lt;";
        else if (c == '>') escaped += "&gt;";
        else escaped += c;
    }
    return escaped;
}

constexpr double kFontSize = 12, kTitleSize = 16;

/// A generous estimate of a sans-serif text's width (the chart test measures with 0.6 x font size per character).
double text_width(const std::string& text, double font_size) { return 0.62 * font_size * static_cast<double>(text.size()); }

std::string text_element(double x, double y, const std::string& text, const char* anchor = "start",
                         double font_size = kFontSize, const char* fill = "#222") {
    return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\">{}</text>\n", x, y,
                       font_size, anchor, fill, escape(text));
}

/// "0.0123", "4.5", "62.4", "1101": three significant digits, whole numbers from 100 up.
std::string short_number(double value) {
    return value >= 100 ? fmt::format("{:.0f}", half_away(value, 0)) : fmt::format("{:.3g}", value);
}

constexpr std::array<const char*, 10> kColours = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
                                                  "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
constexpr size_t kShapes = 7;  // circle, square, triangle up, diamond, triangle down, plus, cross

/// Marker `index`: a hollow shape of its own (shape and colour change with every index) centred on
/// (x, y), within `r` of it.
std::string marker(size_t index, double x, double y, double r = 6) {
    const char* colour = kColours[index % kColours.size()];
    const std::string stroke = fmt::format("fill=\"none\" stroke=\"{}\" stroke-width=\"2\"", colour);
    auto polygon = [&](std::initializer_list<std::pair<double, double>> corners) {
        std::string points;
        for (const auto& [dx, dy] : corners) points += fmt::format("{:.1f},{:.1f} ", x + dx * r, y + dy * r);
        return fmt::format("<polygon points=\"{}\" {}/>\n", points, stroke);
    };
    const double a = 0.35;  // half the width of the bars of the plus and the cross
    switch (index % kShapes) {
        case 0: return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" {}/>\n", x, y, r, stroke);
        case 1: return polygon({{-0.85, -0.85}, {0.85, -0.85}, {0.85, 0.85}, {-0.85, 0.85}});
        case 2: return polygon({{0, -1}, {0.95, 0.75}, {-0.95, 0.75}});
        case 3: return polygon({{0, -1.1}, {1.1, 0}, {0, 1.1}, {-1.1, 0}});
        case 4: return polygon({{0, 1}, {0.95, -0.75}, {-0.95, -0.75}});
        case 5:
            return polygon({{-a, -1}, {a, -1}, {a, -a}, {1, -a}, {1, a}, {a, a}, {a, 1}, {-a, 1}, {-a, a}, {-1, a}, {-1, -a}, {-a, -a}});
        default:
            return polygon({{-0.75, -1}, {0, -0.25}, {0.75, -1}, {1, -0.75}, {0.25, 0}, {1, 0.75}, {0.75, 1}, {0, 0.25},
                            {-0.75, 1}, {-1, 0.75}, {-0.25, 0}, {-1, -0.75}});
    }
}

}  // namespace

std::string svg_chart(const PlotData& d) {
    // Layout: title lines on top; the plot on the left; the legend, one line per point, on the right.
    const double margin = 20, title_height = d.subtitle.empty() ? 40 : 60;
    const double plot_left = 80, plot_top = title_height + 10, plot_width = 560, plot_height = 420;
    const double plot_right = plot_left + plot_width, plot_bottom = plot_top + plot_height;
    const double legend_left = plot_right + 30, legend_row = 20;

    // Axis ranges: whole decades holding the roof and every point.
    double ai_min = d.roof.front().first, ai_max = d.roof.back().first, tflops_min = d.roof.front().second;
    for (const auto& p : d.points) {
        ai_min = std::min(ai_min, p.ai);
        ai_max = std::max(ai_max, p.ai);
        tflops_min = std::min(tflops_min, p.tflops);
    }
    const double x0 = std::floor(std::log10(ai_min)), x1 = std::ceil(std::log10(ai_max));
    const double y0 = std::floor(std::log10(tflops_min)), y1 = std::ceil(std::log10(d.tflops) + 0.1);
    auto X = [&](double ai) { return plot_left + (std::log10(ai) - x0) / (x1 - x0) * plot_width; };
    auto Y = [&](double tflops) { return plot_bottom - (std::log10(tflops) - y0) / (y1 - y0) * plot_height; };

    // The legend's lines, and the canvas that holds them and the titles.
    const std::string legend_title = "Workloads: FLOP/byte, attainable TFLOP/s";
    std::vector<std::string> legend;
    double legend_width = text_width(legend_title, kFontSize);
    for (size_t i = 0; i < d.points.size(); ++i) {
        const PlotPoint& p = d.points[i];
        legend.push_back(fmt::format("{}. {}: {}, {}", i + 1, p.label, short_number(p.ai), short_number(p.tflops)));
        legend_width = std::max(legend_width, 22 + text_width(legend.back(), kFontSize));
    }
    const double width = std::ceil(std::max({legend_left + legend_width + margin, text_width(d.title, kTitleSize) + 2 * margin,
                                             text_width(d.subtitle, kFontSize) + 2 * margin}));
    const double legend_top = plot_top + 16;
    const double height = std::max(plot_bottom + 60, legend_top + legend_row * static_cast<double>(legend.size() + 1) + margin);

    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        width, height);
    s += text_element(width / 2, 28, d.title, "middle", kTitleSize);
    if (!d.subtitle.empty()) s += text_element(width / 2, 50, d.subtitle, "middle", kFontSize, "#555");

    // Decades: grid lines and labels.
    for (double e = x0; e <= x1; e += 1) {
        const double x = X(std::pow(10, e));
        s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>\n", x, plot_top, plot_bottom);
        s += text_element(x, plot_bottom + 18, fmt::format("{:g}", std::pow(10, e)), "middle");
    }
    for (double e = y0; e <= y1; e += 1) {
        const double y = Y(std::pow(10, e));
        s += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n", plot_left, y, plot_right);
        s += text_element(plot_left - 8, y + 4, fmt::format("{:g}", std::pow(10, e)), "end");
    }
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", plot_left, plot_top,
                     plot_width, plot_height);
    s += text_element(plot_left + plot_width / 2, plot_bottom + 42, "Arithmetic intensity (FLOP/byte)", "middle");
    s += fmt::format("<text transform=\"translate(24 {:.1f}) rotate(-90)\" font-size=\"{}\" text-anchor=\"middle\" "
                     "fill=\"#222\">Attainable TFLOP/s</text>\n",
                     plot_top + plot_height / 2, kFontSize);

    // The roof, and the balance point with its label inside the plot, on whichever side has room.
    std::string roof_points;
    for (const auto& [ai, tflops] : d.roof) roof_points += fmt::format("{:.1f},{:.1f} ", X(ai), Y(tflops));
    s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"3\"/>\n", roof_points);
    const double balance_x = X(d.balance);
    const std::string balance_label = fmt::format("balance point {:.0f} FLOP/byte", half_away(d.balance, 0));
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#888\" stroke-dasharray=\"5,4\"/>\n",
                     balance_x, plot_top, plot_bottom);
    const bool label_right = balance_x + 6 + text_width(balance_label, kFontSize) < plot_right;
    s += text_element(label_right ? balance_x + 6 : balance_x - 6, plot_bottom - 10, balance_label, label_right ? "start" : "end",
                      kFontSize, "#555");

    // The points and the legend that names them.
    // Markers on one spot grow around each other (concentric), so each stays visible.
    for (size_t i = 0; i < d.points.size(); ++i) {
        const double x = X(d.points[i].ai), y = Y(d.points[i].tflops);
        double radius = 6;
        for (size_t before = 0; before < i; ++before)
            if (std::hypot(X(d.points[before].ai) - x, Y(d.points[before].tflops) - y) < 8) radius += 3.5;
        s += marker(i, x, y, radius);
    }
    s += text_element(legend_left, legend_top, legend_title);
    for (size_t i = 0; i < d.points.size(); ++i) {
        const double row_y = legend_top + legend_row * static_cast<double>(i + 1);
        s += marker(i, legend_left + 8, row_y - 4);
        s += text_element(legend_left + 22, row_y, legend[i]);
    }
    s += "</svg>\n";
    return s;
}

bool write_svg(const std::string& path, const PlotData& data) {
    const std::string svg = svg_chart(data);
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) return false;
    const bool written = std::fwrite(svg.data(), 1, svg.size(), file) == svg.size();
    return std::fclose(file) == 0 && written;
}

}  // namespace cli
