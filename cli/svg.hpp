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
    double tflops = 0, tbs = 0, balance = 0;
    std::vector<std::pair<double, double>> roof;  ///< (FLOP/byte, TFLOP/s), increasing
    std::vector<PlotPoint> points;
};

/// Writes the chart; false if the file cannot be written.
bool write_svg(const std::string& path, const PlotData& data);

}  // namespace cli
