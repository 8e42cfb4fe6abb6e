// The one simplex of the fitting layer: Nelder-Mead in the unit box, for the profile fitter (calibrate.cpp) and the
// kernel fitter (kernels.cpp). Internal header.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace roofline::detail {

/// Nelder-Mead from `x` over [0, 1]^n (a point outside is clamped), with a fresh simplex of side `step` about the
/// best point so far; at most 100 n iterations. Deterministic. Returns the best point and updates `fx` to its value.
/// A caller restarts it with smaller steps: a non-smooth loss can stall a simplex early.
template <class F>
std::vector<double> simplex_descent(F&& f, std::vector<double> x0, double step, double& fx0) {
    using Point = std::vector<double>;
    const std::size_t n = x0.size();
    if (n == 0) return x0;
    std::vector<Point> x(n + 1, x0);
    for (std::size_t i = 1; i <= n; ++i) x[i][i - 1] += x[i][i - 1] < 0.5 ? step : -step;
    std::vector<double> fx(n + 1);
    fx[0] = fx0;
    for (std::size_t i = 1; i <= n; ++i) fx[i] = f(x[i]);
    std::vector<std::size_t> order(n + 1);
    Point centre(n), y(n);
    for (int iteration = 0; iteration < 100 * static_cast<int>(n); ++iteration) {
        for (std::size_t i = 0; i <= n; ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fx[a] < fx[b]; });
        const std::size_t best = order[0], worst = order[n], second = order[n - 1];
        if (fx[worst] - fx[best] < 1e-12) break;
        std::fill(centre.begin(), centre.end(), 0.0);
        for (std::size_t i = 0; i <= n; ++i)
            if (i != worst)
                for (std::size_t j = 0; j < n; ++j) centre[j] += x[i][j] / n;
        auto along = [&](double t) {
            Point p(n);
            for (std::size_t j = 0; j < n; ++j) p[j] = std::clamp(centre[j] + t * (x[worst][j] - centre[j]), 0.0, 1.0);
            return p;
        };
        const Point reflected = along(-1);
        const double fr = f(reflected);
        if (fr < fx[best]) {
            const Point expanded = along(-2);
            const double fe = f(expanded);
            if (fe < fr) x[worst] = expanded, fx[worst] = fe;
            else x[worst] = reflected, fx[worst] = fr;
        } else if (fr < fx[second]) {
            x[worst] = reflected, fx[worst] = fr;
        } else {
            const Point contracted = along(0.5);
            const double fc = f(contracted);
            if (fc < fx[worst]) {
                x[worst] = contracted, fx[worst] = fc;
            } else {  // shrink towards the best
                for (std::size_t i = 0; i <= n; ++i) {
                    if (i == best) continue;
                    for (std::size_t j = 0; j < n; ++j) x[i][j] = x[best][j] + 0.5 * (x[i][j] - x[best][j]);
                    fx[i] = f(x[i]);
                }
            }
        }
    }
    const std::size_t best = static_cast<std::size_t>(std::min_element(fx.begin(), fx.end()) - fx.begin());
    fx0 = fx[best];
    return x[best];
}

}  // namespace roofline::detail
