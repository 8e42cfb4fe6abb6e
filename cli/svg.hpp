// A log-log roofline chart as SVG: drawing only; every number comes from the library.
#pragma once

#include <string>
#include <vector>

namespace cli {

struct PlotPoint {
    std::string label;
    double ai = 0;       ///< FLOP/byte
    double tflops = 0;   ///< attainable TFLOP/s at that intensity
};

struct PlotData {
    std::string title;
    std::string subtitle;  ///< a second line under the title (e.g. the formats assumed); may be empty
    double tflops = 0, tbs = 0, balance = 0;
    std::vector<std::pair<double, double>> roof;  ///< (FLOP/byte, TFLOP/s), increasing
    std::vector<PlotPoint> points;
};

/// The chart: the roof, the balance point, each point as a numbered marker (its own shape and colour)
/// and a legend beside the plot that names every marker. The canvas grows to hold every text.
std::string svg_chart(const PlotData& data);

/// Writes svg_chart(data) to `path`; false if the file cannot be written.
bool write_svg(const std::string& path, const PlotData& data);

}  // namespace cli
